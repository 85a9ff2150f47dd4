// The components' events (model/events.ts) as code: one function that writes
// every indicator into g, and one that applies event k's actions, both over
// the arrays the derivatives use (t, x, u, p, w). Every variable is read
// where its signal is read (compiled-data.ts SignalSource: a state, an
// input or mode, a parameter or its folded value, an unknown, an alias of
// one of them), so the events need nothing of the plan and are the same in
// the torn and the relaxed form; they carry as text in the compiled data
// (the compile cache, portable models).
import { type Expr, type Sym, show } from '../expr/index.ts';
import { ModelError } from '../errors.ts';
import { type Direction, type EventDeclaration, type Variable, eventName, variableOf, variablesIn } from '../model/index.ts';
import type { SignalSource } from './compiled-data.ts';
import { Scope } from './emitter.ts';

/** one event of the compiled model, for the report and the run's messages */
export interface EventInfo {
  /** full name: component path and the event's own ("j1.limit_upper") */
  readonly name: string;
  /** the component that declared it */
  readonly component: string;
  readonly direction: Direction;
  /** the indicator, printed */
  readonly indicator: string;
  /** the states it reinitialises and the modes it sets, by name */
  readonly reinit: readonly string[];
  readonly set: readonly string[];
}

/** the compiled events as plain data */
export interface EventData {
  readonly events: readonly EventInfo[];
  /** an indicator or action reads an unknown: the model is evaluated at (t, x) before them */
  readonly readsModel: boolean;
  /** function body returning { indicators(t, x, u, p, w, g), apply(k, t, x, u, p, w) } */
  readonly body: string;
}

export interface EventFunctions {
  indicators(t: number, x: Float64Array, u: Float64Array, p: Float64Array, w: ArrayLike<number>, g: Float64Array): void;
  apply(k: number, t: number, x: Float64Array, u: Float64Array, p: Float64Array, w: ArrayLike<number>): void;
}

const ARGS = 't, x, u, p, w';

// (declared events, every signal's source) => their code and description; undefined when there are none
export function compileEvents(declared: readonly EventDeclaration[], sources: ReadonlyMap<string, SignalSource>): EventData | undefined {
  if (!declared.length) return undefined;
  let readsModel = false;
  for (const e of declared) readsModel = checkReads(e, sources) || readsModel;
  const ref = (s: Sym): string => read(sources.get((s as Variable).name)!);
  const indicators = new Scope(ref, '    ', { next: 0 }).prepare(declared.map((e) => e.indicator));
  const g = declared.map((e, k) => `    g[${k}] = ${indicators.code(e.indicator)};`);
  const cases = declared.map((e, k) => `      case ${k}: {\n${actionLines(e, sources, ref)}\n        return;\n      }`);
  const body = [
    'return {',
    `  indicators(${ARGS}, g) {`,
    ...indicators.lines,
    ...g,
    '  },',
    `  apply(k, ${ARGS}) {`,
    '    switch (k) {',
    ...cases,
    '    }',
    '  },',
    '};',
  ].join('\n');
  const events = declared.map((e) => ({
    name: eventName(e),
    component: e.origin.path,
    direction: e.direction,
    indicator: show(e.indicator),
    reinit: e.reinit.map(([v]) => variableOf(v)!.name),
    set: e.set.map(([v]) => variableOf(v)!.name),
  }));
  return { events, readsModel, body };
}

/** every variable an event reads has a signal (else a ModelError naming the event); true when one is an unknown */
function checkReads(e: EventDeclaration, sources: ReadonlyMap<string, SignalSource>): boolean {
  let unknown = false;
  for (const x of [e.indicator, ...e.reinit.map(([, v]) => v), ...e.set.map(([, v]) => v)]) {
    for (const v of variablesIn(x).values()) {
      const src = sources.get(v.name);
      if (!src) {
        throw new ModelError(`event ${eventName(e)} reads ${v.name}, which is not a variable of the compiled model`, {
          component: e.origin.path,
          variables: [v.name],
          hint: 'an event may read the states, inputs, modes, parameters and unknowns of its own model',
        });
      }
      unknown ||= src.from === 'w';
    }
  }
  return unknown;
}

/** an event's actions: every value computed first (from the values before the event), then assigned */
function actionLines(e: EventDeclaration, sources: ReadonlyMap<string, SignalSource>, ref: (s: Sym) => string): string {
  const name = eventName(e);
  const targets = [...e.reinit.map(([v, value]) => ({ v, value, to: 'x' as const })), ...e.set.map(([v, value]) => ({ v, value, to: 'u' as const }))];
  const scope = new Scope(ref, '        ', { next: 0 }).prepare(targets.map((a) => a.value));
  const values = targets.map((a) => scope.code(a.value));
  const assigns = targets.map(
    (a, i) => `        ${target(name, a.v, a.to, sources)} = (v${i} - (${sourceOffset(a.v, sources)})) / (${sourceSign(a.v, sources)});`,
  );
  return [...scope.lines, ...values.map((v, i) => `        const v${i} = ${v};`), ...assigns].join('\n');
}

/** where an action's variable is written: a state x[i], or a mode u[i]; else a ModelError */
function target(event: string, v: Expr, to: 'x' | 'u', sources: ReadonlyMap<string, SignalSource>): string {
  const variable = variableOf(v)!;
  const src = sources.get(variable.name);
  if (to === 'x' && src?.from !== 'x') {
    throw new ModelError(`event ${event} reinitialises ${variable.name}, which is not a state of the compiled model`, {
      variables: [variable.name],
      hint: 'reinit() takes a state: a variable under der() that the compiled model integrates',
    });
  }
  if (to === 'u' && src?.from !== 'u')
    throw new ModelError(`event ${event} sets mode ${variable.name}, which the compiled model does not hold`, { variables: [variable.name] });
  return `${to}[${src!.index}]`;
}

const sourceOffset = (v: Expr, sources: ReadonlyMap<string, SignalSource>) => sources.get(variableOf(v)!.name)!.offset;
const sourceSign = (v: Expr, sources: ReadonlyMap<string, SignalSource>) => sources.get(variableOf(v)!.name)!.sign;

/** the code reading a signal: sign * array[index] + offset */
function read(s: SignalSource): string {
  const at = s.from === 'time' ? 't' : s.from === 'value' ? '0' : `${s.from}[${s.index}]`;
  if (s.from === 'value') return `(${s.offset})`;
  return s.sign === 1 && s.offset === 0 ? at : `(${s.sign} * ${at} + (${s.offset}))`;
}

/** the event functions of compiled data */
export function eventFunctions(data: EventData): EventFunctions {
  return new Function(data.body)() as EventFunctions;
}
