// The relaxing iteration's code (relaxing paper section 4, the scheme after
// eq. 11; plan: structure/iterate-plan.ts): the prelude once per evaluation,
// then Gauss-Seidel sweeps over the remainder rows, each z_k updated in place
// from the latest values of the others (so the sweep is Gauss-Seidel, not
// Jacobi), optionally over-relaxed, until no z_k moved by more than
// tol * max(nominal_k, |z_k|). z lives in the workspace, so every evaluation
// starts from the previous one's solution (the warm start). Sweep counts are
// kept in workspace slots (IterationSlots) for the simulation's statistics.
import { SimulationError } from '../errors.ts';
import { type Expr, ZERO } from '../expr/index.ts';
import { type IterateStep, Temp } from '../structure/plan-types.ts';
import type { Module } from './generate.ts';
import { addOps } from './ops.ts';
import { type Elem, elem } from './ir.ts';

const ARGS = 't, x, u, p, w';

/** workspace slots of one iteration's statistics, kept across evaluations */
export interface IterationSlots {
  /** the relaxed loop (report.relaxedLoops index) */
  loop: number;
  /** sweeps summed over evaluations */
  sweeps: number;
  /** evaluations that ran the iteration */
  evaluations: number;
  /** the most sweeps one evaluation took */
  max: number;
}

/** a relaxing iteration's sweeps per evaluation, as a simulation reports them */
export interface IterationStats {
  /** the relaxed loop (report.relaxedLoops index) */
  loop: number;
  /** evaluations of the derivatives in the run */
  evaluations: number;
  /** sweeps of the iteration, in all of them */
  sweeps: number;
  /** sweeps per evaluation: mean and max */
  meanSweeps: number;
  /** the most sweeps one evaluation took */
  maxSweeps: number;
}

export function iterationStats(it: IterationSlots, w: ArrayLike<number>): IterationStats {
  const evaluations = w[it.evaluations],
    sweeps = w[it.sweeps];
  return { loop: it.loop, evaluations, sweeps, meanSweeps: evaluations ? sweeps / evaluations : 0, maxSweeps: w[it.max] };
}

/** the statistics of the evaluations between two readings of one state (the max is the later one's) */
export function statsSince<T extends { evaluations: number; sweeps: number; meanSweeps: number }>(before: readonly T[], after: readonly T[]): T[] {
  return after.map((a, i) => {
    const evaluations = a.evaluations - before[i].evaluations,
      sweeps = a.sweeps - before[i].sweeps;
    return { ...a, evaluations, sweeps, meanSweeps: evaluations ? sweeps / evaluations : 0 };
  });
}

/** the calls that run one iterate step in derivatives() (or outputs()) */
export function emitIterate(mod: Module, s: IterateStep, register: (slots: IterationSlots) => void): string[] {
  const b = s.block,
    k = s.z.length;
  const stats: IterationSlots = { loop: b, ...slotsOf(mod, { sweeps: `i${b}.sweeps`, evaluations: `i${b}.evaluations`, max: `i${b}.maxSweeps` }) };
  register(stats);
  const zSlots = s.z.map((v) => mod.slots.slot(v));
  const [zs, nom, prev] = [`itz${b}`, `itn${b}`, `itp${b}`];
  const prelude = [...preludeCalls(mod, s), ...fillCalls(mod, s, zSlots)];
  const sweep = sweepFunction(mod, s);
  const { tol, maxSweeps } = s.options;
  const iterate = mod.function('iterate', (sc) => {
    sc.line('for (let sweep = 1; ; sweep++) {');
    sc.line(`  const d = ${sweep}(${ARGS});`);
    sc.line(`  if (d <= ${tol}) {`);
    sc.line(`    w[${stats.sweeps}] += sweep; w[${stats.evaluations}] += 1; if (sweep > w[${stats.max}]) w[${stats.max}] = sweep;`);
    sc.line('    return;');
    sc.line('  }');
    // not converging (or NaN): one more sweep records every z_k's relative change, for the error
    sc.line(`  if (sweep >= ${maxSweeps} || !(d < Infinity)) {`);
    sc.line(`    for (let i = 0; i < ${k}; i++) ${prev}[i] = w[${zs}[i]];`);
    sc.line(`    ${sweep}(${ARGS});`);
    sc.line(`    for (let i = 0; i < ${k}; i++) { const v = w[${zs}[i]]; ${prev}[i] = Math.abs(v - ${prev}[i]) / Math.max(${nom}[i], Math.abs(v)); }`);
    sc.line(`    fail('iterate', ${b}, t, sweep, ${prev});`);
    sc.line('  }');
    sc.line('}');
  });
  return [...prelude, `${iterate}(${ARGS});`];
}

function slotsOf<K extends string>(mod: Module, names: Record<K, string>): Record<K, number> {
  return Object.fromEntries(Object.entries(names).map(([key, name]) => [key, mod.slots.slot(new Temp(name as string))])) as Record<K, number>;
}

/** the prelude, with its pivots checked: one that vanishes stops the run (fail 'iterate' with sweep 0) */
function preludeCalls(mod: Module, s: IterateStep): string[] {
  if (s.pivots === 0) return mod.assigns(s.prelude, 'g');
  const check = slotsOf(mod, { flag: `i${s.block}.pivotFailed`, scale: `i${s.block}.pivotScale` });
  return [
    `w[${check.flag}] = 0; w[${check.scale}] = 0;`,
    ...mod.assigns(s.prelude, 'g', check),
    `if (w[${check.flag}] !== 0) fail('iterate', ${s.block}, t, 0, null);`,
  ];
}

/**
 * The rows as data (compressed sparse rows over the workspace): the row
 * starts, the workspace slots of the z each term reads, the coefficients
 * (constants written once, the others filled per evaluation) and the
 * constant parts b (filled per evaluation). One small loop then sweeps any
 * number of rows: a grid of 9e4 nodes printed as straight-line updates would
 * be megabytes of machine code, run through once per sweep, and the
 * instruction cache misses cost more than the arithmetic (measured: 40 ns per
 * update at 900 rows, 320 ns at 1e4). Returns the calls that fill the
 * per-evaluation entries.
 */
function fillCalls(mod: Module, s: IterateStep, zSlots: readonly number[]): string[] {
  const b = s.block,
    k = s.z.length;
  const starts = [0],
    cols: number[] = [],
    constants: number[] = [];
  const fills: [Elem, Expr][] = [];
  s.rows.forEach((row, r) => {
    for (const [j, a] of row.terms) {
      if (a.op === 'const') constants.push(a.value);
      else {
        constants.push(0);
        fills.push([elem(`ita${b}`, cols.length), a]);
      }
      cols.push(zSlots[j]);
    }
    starts.push(cols.length);
    if (row.b !== ZERO) fills.push([elem(`itb${b}`, r), row.b]);
  });
  mod.parts.push(
    [
      `const itz${b} = ${typed('Int32Array', zSlots)}, itn${b} = ${typed('Float64Array', s.nominal)}, itp${b} = new Float64Array(${k});`,
      `const itr${b} = ${typed('Int32Array', starts)}, itc${b} = ${typed('Int32Array', cols)};`,
      `const ita${b} = ${typed('Float64Array', constants)}, itb${b} = new Float64Array(${k});`,
    ].join('\n'),
  );
  const calls: string[] = [];
  for (let i = 0; i < fills.length; i += mod.chunk) {
    const part = fills.slice(i, i + mod.chunk);
    calls.push(
      `${mod.function('fill', (sc) => {
        sc.prepare(part.map(([, e]) => e));
        for (const [target, e] of part) sc.assign(target, e);
      })}(${ARGS});`,
    );
  }
  return calls;
}

/** a typed array literal: from an array literal (Int32Array.of(...) takes at most 65535 arguments), or filled */
function typed(kind: 'Int32Array' | 'Float64Array', values: readonly number[]): string {
  if (values.length > 0 && values.every((v) => v === values[0])) return `new ${kind}(${values.length}).fill(${values[0]})`;
  return `new ${kind}([${values.join(', ')}])`;
}

/** one sweep over the rows, in place (Gauss-Seidel), returning the largest relative change (NaN stays NaN) */
function sweepFunction(mod: Module, s: IterateStep): string {
  const b = s.block,
    k = s.z.length,
    { omega } = s.options;
  const nnz = s.rows.reduce((n, r) => n + r.terms.length, 0);
  // a sweep's arithmetic: a multiplication and an addition per term (plus b), and SOR's 1 mul, 2 add per row
  addOps(mod.ops, { mul: nnz + (omega === 1 ? 0 : k), add: nnz + (omega === 1 ? 0 : 2 * k), div: 0, fn: 0 });
  return mod.function('sweep', (sc) => {
    sc.line('let d = 0;');
    sc.line(`for (let r = 0; r < ${k}; r++) {`);
    sc.line(`  let v = itb${b}[r];`);
    sc.line(`  for (let j = itr${b}[r], e = itr${b}[r + 1]; j < e; j++) v += ita${b}[j] * w[itc${b}[j]];`);
    sc.line(`  const slot = itz${b}[r], o = w[slot];`);
    if (omega !== 1) sc.line(`  v = o + ${omega} * (v - o);`);
    sc.line('  w[slot] = v;');
    sc.line(`  d = Math.max(d, Math.abs(v - o) / Math.max(itn${b}[r], Math.abs(v)));`);
    sc.line('}');
    sc.line('return d;');
  });
}

/** how many of the slowest variables an iteration's error names */
const SLOWEST = 5;

/**
 * The SimulationError of an iteration that did not converge in maxSweeps
 * sweeps (changes: each z_k's relative change in one more sweep), or whose
 * prelude divides by a pivot that vanished (sweeps 0).
 */
export function iterationFailure(
  step: Pick<IterateStep, 'block' | 'options'> & { readonly z: readonly { readonly name: string }[] },
  t: number,
  sweeps: number,
  changes: ArrayLike<number> | null,
): SimulationError {
  if (sweeps === 0 || !changes) {
    return new SimulationError(`a pivot of the relaxing iteration of relaxed loop ${step.block} vanished at time ${t}`, {
      variables: step.z.slice(0, SLOWEST).map((v) => v.name),
      hint: 'a parameter that is zero (a resistance, a capacitance) makes the relaxed elimination singular: check the parameters, or compile without --relax-iterate',
    });
  }
  const key = (i: number) => (Number.isNaN(changes[i]) ? Infinity : changes[i]);
  const order = Array.from({ length: changes.length }, (_, i) => i).sort((a, b) => key(b) - key(a) || a - b);
  const slowest = order.slice(0, SLOWEST).map((i) => `${step.z[i].name} (${changes[i].toExponential(1)})`);
  const { tol, maxSweeps, omega } = step.options;
  return new SimulationError(
    `the relaxing iteration of relaxed loop ${step.block} (${step.z.length} iteration variables) did not converge in ${maxSweeps} sweeps at time ${t}: the slowest variables still changed by ${slowest.join(', ')} relative to their nominal values in the last sweep (tol ${tol})`,
    {
      variables: order.slice(0, SLOWEST).map((i) => step.z[i].name),
      hint: `Gauss-Seidel converges slowly where the rows are far from diagonally dominant (a node tied to its neighbours far more strongly than to anything else): allow more sweeps (--iterate-max-sweeps), over-relax (--iterate-omega 1.5; now ${omega}), loosen --iterate-tol, or compile without --relax-iterate`,
    },
  );
}
