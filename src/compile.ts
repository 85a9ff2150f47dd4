// The pipeline: model -> flat model -> aliases removed -> sorted and torn
// plan -> generated JavaScript -> compiled model with its report.
// Pure: parameter and start values travel as data, nothing is written into
// the model, and the expressions a compile makes are released with it
// (expr/node.ts, withLocalTable).
import { StructuralError, UsageError } from './errors.ts';
import { withLocalTable } from './expr/index.ts';
import { type Model, elaborate, eliminateAliases, flatten, unconnectedConnectors } from './model/index.ts';
import { type TearOverride, planModel } from './structure/plan.ts';
import { generate } from './codegen/generate.ts';
import { CompiledModel } from './codegen/compiled.ts';
import { moduleSource } from './codegen/module.ts';
import type { CompileReport, Mode } from './report.ts';

export type { CompileReport, Mode };

export interface CompileOptions {
  /** 'torn' (residue hints, M(q) qdd = h) or 'relaxed' (relax hints as well, O(f)) */
  mode?: Mode;
  /** "variable tear" overrides of the tearing paper */
  tear?: readonly TearOverride[];
  /** parameter values by hierarchical name, overriding the declared ones (the model is not changed) */
  parameters?: Readonly<Record<string, number>>;
  /** start values by name (states such as 'j1.q', or first guesses of unknowns), overriding the declared ones */
  start?: Readonly<Record<string, number>>;
  /** fold parameters into constants (default true) */
  foldParameters?: boolean;
  /** statements per generated function (default 800) */
  chunk?: number;
  /** share generated functions that are equal up to shifted workspace, state and parameter indices (default true) */
  share?: boolean;
}

// (model, options) => compiled model and its report
export function compile(model: Model, options: CompileOptions = {}): CompiledModel {
  const t0 = performance.now();
  const mode = options.mode ?? 'torn';
  if (mode !== 'torn' && mode !== 'relaxed') throw new UsageError(`mode "${mode}" is not known`, { hint: 'use --mode torn or --mode relaxed' });
  // what the model declares once it is complete belongs to the model, not to this compile's table
  elaborate(model);
  const compiled = withLocalTable(() => compileElaborated(model, mode, options));
  compiled.report.compileMs = Math.round((performance.now() - t0) * 100) / 100;
  return compiled;
}

function compileElaborated(model: Model, mode: Mode, options: CompileOptions): CompiledModel {
  const flat = flatten(model, { foldParameters: options.foldParameters, parameters: options.parameters });
  const reduced = eliminateAliases(flat);
  let plan;
  try {
    plan = planModel(reduced, { tear: options.tear, relaxed: mode === 'relaxed' });
  } catch (e) {
    throw e instanceof StructuralError ? (unconnectedCause(model, e) ?? e) : e;
  }
  const generated = generate(plan, { chunk: options.chunk, share: options.share });
  const report: CompileReport = {
    model: flat.name,
    mode,
    equations: flat.equations.length,
    unknowns: plan.unknowns.length,
    states: plan.states.length,
    blocks: plan.blocks.filter((b) => b.size > 1),
    ops: generated.ops,
    outputOps: generated.outputOps,
    compileMs: 0,
    sortedEquations: plan.sortedEquations,
    aliasesEliminated: reduced.aliases.size,
    nonlinearScalars: plan.blocks.filter((b) => b.size === 1).length,
    functions: generated.functions,
    diagnostics: [...plan.diagnostics],
    relaxedLoops: [...plan.relaxedLoops],
  };
  if (plan.definedInputs.length) report.definedInputs = plan.definedInputs.map((v) => v.name);
  const kinematics = model.describeStructure() as CompileReport['kinematics'];
  if (kinematics) report.kinematics = kinematics;
  const header = { model: report.model, mode, equations: report.equations, states: generated.layout.states.join(', ') };
  return new CompiledModel(plan, reduced, generated, report, () => moduleSource(generated, header), { folded: options.foldParameters ?? true, start: options.start });
}

/**
 * A structurally singular model whose undetermined unknowns are the across
 * quantities of a connector that nothing is connected to (a body left
 * hanging): say that, rather than list the equations.
 */
function unconnectedCause(model: Model, e: StructuralError): StructuralError | undefined {
  const undetermined = new Set((e.details.variables ?? []).filter((v) => v.endsWith(' (not determined)')).map((v) => v.slice(0, -' (not determined)'.length)));
  const culprits = unconnectedConnectors(model).filter((c) => c.across.length > 0 && c.across.some((v) => undetermined.has(v)));
  if (culprits.length === 0) return undefined;
  const names = culprits.map((c) => c.name);
  return new StructuralError(`${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} not connected to anything, so nothing determines ${names.length > 1 ? 'their' : 'its'} ${[...new Set(culprits.flatMap((c) => c.across.map((v) => v.slice(c.name.length + 1).replace(/\[.*$/, ''))))].join(', ')}`, {
    component: culprits[0].name.split('.').slice(0, -1).join('.') || undefined,
    variables: shortList(culprits.flatMap((c) => c.across.filter((v) => undetermined.has(v)))),
    hint: `connect ${names.length > 1 ? 'each' : 'it'} to the model, e.g. m.connect(<a joint's frame_b>, ${names[0]}) (${e.message})`,
  });
}

const shortList = (names: string[], n = 4) => (names.length > n ? [...names.slice(0, n), `... (${names.length} in all)`] : names);
