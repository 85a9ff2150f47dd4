// From swept values to run tasks: each swept name is a parameter (changed
// per run in the compiled code, which keeps parameters symbolic for it) or
// a start value. Every run's values are checked here, on the model compiled
// in this thread, with the components' own checks (a negative mass...): a
// run they reject is an error outcome at once and is never sent to a worker.
import { UsageError } from '../errors.ts';
import { type Component, type Model, type VarKind, elaborate } from '../model/index.ts';
import type { CompiledModel } from '../codegen/compiled.ts';
import type { SweepPoints } from './runs.ts';
import { type RunOutcome, type RunTask, describe } from './run.ts';

export type SweptKind = 'parameter' | 'start';

// (model, swept names) => whether each is a parameter or a start value
export function sweptKinds(model: Model, names: readonly string[]): SweptKind[] {
  elaborate(model); // components declare some parameters when elaborated (joint limits...), as compile() does
  const kinds = new Map<string, VarKind>();
  const visit = (c: Component) => {
    for (const v of c.variables) kinds.set(v.name, v.kind);
    c.children.forEach(visit);
  };
  visit(model);
  return names.map((name) => {
    const kind = kinds.get(name);
    if (kind) return kind === 'parameter' ? 'parameter' : 'start';
    // what the same component offers to sweep: its parameters and states
    const owner = name.split('.')[0];
    const near = [...kinds]
      .filter(([k, kind]) => k.split('.')[0] === owner && (kind === 'parameter' || kind === 'state'))
      .map(([k]) => k)
      .slice(0, 12);
    throw new UsageError(`a sweep names ${name}, which is neither a parameter nor a variable of the model`, {
      variables: [name],
      hint: `sweep a model parameter (link2.m) or a state's start value (j1.q)${near.length ? `; ${name.split('.')[0]} has ${near.join(', ')}` : ''}; a model module's own parameters (n=16) change its structure: give them with --set`,
    });
  });
}

/** run i's task, or its error outcome when the model rejects its values */
export function prepareTask(compiled: CompiledModel, points: SweepPoints, kinds: readonly SweptKind[], index: number): RunTask | RunOutcome {
  const parameters: Record<string, number> = {},
    start: Record<string, number> = {};
  const values = points.at(index);
  points.names.forEach((name, k) => ((kinds[k] === 'parameter' ? parameters : start)[name] = values[k]));
  try {
    compiled.createState({ parameters, start });
  } catch (e) {
    return { index, status: 'error', error: describe(e), metrics: {} };
  }
  return { index, parameters, start };
}

export const isOutcome = (t: RunTask | RunOutcome): t is RunOutcome => 'status' in t;
