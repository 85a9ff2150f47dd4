// src/bench/sweep: the measurements of `kron bench`. For each model of the table
// (the chain at every n of the sweep), compiled torn and relaxed: compile time
// (CPU and wall), operations per evaluation (report.ops) and µs per evaluation
// of the state derivatives (timing.ts: CPU time, interleaved rounds). Every
// form is compiled and warmed up first, then all are timed in the same
// rounds; then an ArrayBuffer is detached, as MuJoCo's WebAssembly memory does
// when it grows and as any transfer does, after which V8 runs typed-array code
// without its ArrayBufferDetaching protector: Kron is timed again under those
// conditions, in the same rounds as MuJoCo's mj_forward on an MJCF of each
// mechanism (mjcf.ts, mujoco.ts). Both Kron rows are kept.
// A compile that is predicted to exceed the CPU budget (extrapolated from the
// two smaller ones of the sweep) is skipped, with the reason, and so is every
// larger one of that model and mode.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Mode, compile } from '../compile.ts';
import type { CompiledModel } from '../codegen/compiled.ts';
import type { OpCounts } from '../codegen/ops.ts';
import { KronError } from '../errors.ts';
import { Mechanism } from '../library/multibody/index.ts';
import type { Model } from '../model/index.ts';
import { importModule } from '../node/import-module.ts';
import { PACKAGE_ROOT } from '../node/package.ts';
import { type BenchModel, DEFAULT_SIZES, MODELS } from './models.ts';
import { accelerationsAt, randomState } from './agreement.ts';
import { type Mjcf, mjcf, referenceValues } from './mjcf.ts';
import { MujocoPeer } from './mujoco.ts';
import { type Subject, type Timing, type Warmed, cpuMicros, evalSubject, rng, timeRounds, warm } from './timing.ts';

export type BenchMode = Mode | 'mujoco';

/** one line of `kron bench --json` */
export interface BenchRow {
  model: BenchModel;
  /** degrees of freedom */
  n: number;
  mode: BenchMode;
  /** median µs (CPU time) per evaluation over the interleaved rounds */
  usPerEval: number;
  /** the fastest round's µs per evaluation */
  usMin?: number;
  /** Kron rows only: wall-clock ms of the compile */
  compileMs?: number;
  /** Kron rows only: CPU ms of the compile */
  compileCpuMs?: number;
  ops?: OpCounts;
  /** set when the warm-up ran out of time: the code may not have reached V8's optimising tier */
  warmupCapped?: true;
  /** Kron rows timed again after an ArrayBuffer was detached, in the rounds of the MuJoCo rows */
  afterDetach?: true;
}

/** a row that was not measured, and why */
export interface Skipped {
  model: BenchModel;
  n?: number;
  mode?: BenchMode;
  reason: string;
}

export { type BenchModel, DEFAULT_SIZES, MODELS };
export const MODES: readonly Mode[] = ['torn', 'relaxed'];

export interface SweepOptions {
  models: readonly BenchModel[];
  /** chain sizes */
  sizes: readonly number[];
  /** largest chain compiled torn */
  maxTornN: number;
  /** skip a compile predicted to take longer (CPU ms) */
  compileBudgetMs: number;
  /** interleaved timing rounds */
  rounds: number;
  mujoco: boolean;
  /** longest warm-up per row (ms) */
  warmupMs: number;
  /** progress, one line at a time */
  log: (line: string) => void;
  /** the code Kron's forms run (compile's target; default 'js') */
  target?: 'js' | 'wasm';
}

export interface SweepResult {
  rows: BenchRow[];
  skipped: Skipped[];
  /** remarks on measured rows, e.g. a warm-up that ended at its time limit */
  notes: string[];
  /** MuJoCo's qacc against Kron's der(qd), largest relative difference per peer row */
  agreement: { model: BenchModel; n: number; maxRelDiff: number }[];
  mujocoVersion?: string;
}

type Build = (p: Record<string, number>) => Model;

/** a form compiled for the table, not yet timed */
interface Compiled {
  row: Omit<BenchRow, 'usPerEval' | 'usMin'>;
  c: CompiledModel;
}

// (options) => rows, skipped rows, and the MuJoCo agreement checks
export async function sweep(o: SweepOptions): Promise<SweepResult> {
  const result: SweepResult = { rows: [], skipped: [], notes: [], agreement: [] };
  const forms: Compiled[] = [];
  const peers: { model: BenchModel; mech: Model; c: CompiledModel }[] = [];
  for (const entry of MODELS.filter((m) => o.models.includes(m.name))) {
    const path = join(PACKAGE_ROOT, entry.file);
    if (!existsSync(path)) {
      result.skipped.push({ model: entry.name, reason: `${entry.file} does not exist (yet)` });
      o.log(`${entry.name}: skipped, ${entry.file} does not exist`);
      continue;
    }
    const build = ((await importModule(path)) as { default: Build }).default;
    const history = new Map<Mode, { n: number; ms: number }[]>(MODES.map((m) => [m, []]));
    for (const n of entry.sweep ? o.sizes : [undefined]) {
      const reference = compileInstance(
        entry.name,
        () => build(n === undefined ? { ...entry.parameters } : { ...entry.parameters, n }),
        n,
        history,
        o,
        result,
        forms,
      );
      if (reference) peers.push({ model: entry.name, ...reference });
    }
  }
  o.log(`timing ${forms.length} compiled forms in ${o.rounds} interleaved rounds`);
  const kron = (minCalls?: number) =>
    forms.map((f) => warmed(evalSubject(f.c, seed(f.row.model, f.row.n, f.row.mode)), `${f.row.model} n=${f.row.n} ${f.row.mode}`, o, result, minCalls));
  timeRounds(kron(), o.rounds).forEach((t, i) => result.rows.push(row(forms[i].row, t, o)));
  if (!o.mujoco) return result;
  // what MuJoCo's WebAssembly memory does when it grows: from here on V8 has no ArrayBufferDetaching protector
  detachOneBuffer();
  const mujoco: { row: BenchRow; warmed: Warmed; peer: MujocoPeer }[] = [];
  for (const p of peers) {
    const m = await mujocoSubject(p.model, p.mech, p.c, o, result);
    if (m) mujoco.push(m);
  }
  const after = kron(2000);
  const timings = timeRounds([...after, ...mujoco.map((m) => m.warmed)], o.rounds);
  forms.forEach((f, i) => result.rows.push(row({ ...f.row, afterDetach: true }, timings[i], o)));
  mujoco.forEach((m, i) => result.rows.push(row(m.row, timings[forms.length + i], o)));
  for (const m of mujoco) m.peer.delete();
  return result;
}

/** a subject warmed up; a warm-up that ran out of time noted */
function warmed(subject: Subject, name: string, o: SweepOptions, result: SweepResult, minCalls?: number): Warmed {
  const w = warm(subject, { maxMs: o.warmupMs, minCalls });
  if (w.capped)
    result.notes.push(
      `${name}: warm-up stopped at its limit after ${w.warmupCalls} calls in ${(w.warmupMs / 1000).toFixed(0)} s of CPU, before ${w.warmupCalls < (minCalls ?? 20000) ? 'enough calls' : 'stable rounds'}; marked *, left out of the fits and ratios`,
    );
  return w;
}

/** a measured row, logged */
function row(r: Omit<BenchRow, 'usPerEval' | 'usMin'>, t: Timing, o: SweepOptions): BenchRow {
  const out: BenchRow = { ...r, usPerEval: t.us, usMin: t.min, ...(t.capped ? { warmupCapped: true as const } : {}) };
  o.log(
    `${r.model} n=${r.n} ${r.mode}${r.afterDetach ? ' (after a detach)' : ''}: ${t.us.toPrecision(4)} µs/eval (min ${t.min.toPrecision(4)})${t.capped ? ' (warm-up capped)' : ''}`,
  );
  return out;
}

/** the state V8 is in once any ArrayBuffer of the process has been detached */
function detachOneBuffer(): void {
  const buffer = new ArrayBuffer(8);
  structuredClone(buffer, { transfer: [buffer] });
  if (buffer.byteLength !== 0) throw new Error('the buffer was not detached');
}

/** one model instance in both modes; returns the first form that compiled, with its model (the MJCF is written from them) */
function compileInstance(
  model: BenchModel,
  build: () => Model,
  sweepN: number | undefined,
  history: Map<Mode, { n: number; ms: number }[]>,
  o: SweepOptions,
  result: SweepResult,
  forms: Compiled[],
): { mech: Model; c: CompiledModel } | undefined {
  let reference: { mech: Model; c: CompiledModel } | undefined;
  for (const mode of ['relaxed', 'torn'] as const) {
    const why = sweepN === undefined ? undefined : overBudget(sweepN, mode, history.get(mode)!, o);
    if (why) {
      result.skipped.push({ model, n: sweepN, mode, reason: why });
      o.log(`${model} n=${sweepN} ${mode}: skipped, ${why}`);
      continue;
    }
    try {
      const mech = build();
      const t0 = performance.now(),
        cpu0 = cpuMicros();
      const c = compile(mech, { mode, target: o.target });
      const compileCpuMs = (cpuMicros() - cpu0) / 1000,
        compileMs = performance.now() - t0;
      const n = c.stateNames.length / 2;
      history.get(mode)!.push({ n: sweepN ?? n, ms: compileCpuMs });
      forms.push({ row: { model, n, mode, compileMs, compileCpuMs, ops: { ...c.report.ops } }, c });
      o.log(`${model} n=${n} ${mode}: compile ${compileCpuMs.toFixed(0)} ms CPU (${compileMs.toFixed(0)} ms wall)`);
      reference ??= { mech, c };
    } catch (e) {
      if (!(e instanceof KronError)) throw e;
      result.skipped.push({ model, n: sweepN, mode, reason: `${e.name}: ${e.message}` });
      o.log(`${model} ${mode}: skipped, ${e.name}: ${e.message}`);
    }
  }
  return reference;
}

/** MuJoCo's mj_forward on the MJCF of the model, warmed up; qacc checked against Kron's at one random state */
async function mujocoSubject(
  model: BenchModel,
  mech: Model,
  c: CompiledModel,
  o: SweepOptions,
  result: SweepResult,
): Promise<{ row: BenchRow; warmed: Warmed; peer: MujocoPeer } | undefined> {
  const n = c.stateNames.length / 2;
  let peer: MujocoPeer | undefined;
  try {
    if (!(mech instanceof Mechanism)) throw new Error('the model is not a Mechanism: there is no MJCF to write');
    const doc = mjcf(mech, referenceValues(c));
    peer = await MujocoPeer.load(doc);
    result.mujocoVersion ??= peer.version;
    result.agreement.push({ model, n, maxRelDiff: agreement(c, peer, doc, seed(model, n, 'mujoco')) });
    // the WebAssembly module is shared by all rows: hot after the first ones, it needs fewer calls than fresh generated code
    const w = warmed(peer.forwardSubject(seed(model, n, 'mujoco')), `${model} n=${n} mujoco`, o, result, 2000);
    return { row: { model, n, mode: 'mujoco', usPerEval: 0, usMin: 0 }, warmed: w, peer };
  } catch (e) {
    peer?.delete();
    const reason = e instanceof KronError ? `${e.name}: ${e.message}` : `MuJoCo: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
    result.skipped.push({ model, n, mode: 'mujoco', reason });
    o.log(`${model} n=${n} mujoco: skipped, ${reason}`);
    return undefined;
  }
}

// (Kron model, MuJoCo peer, written model) => max |qacc - Kron's| / max(1, |Kron's|) at a random state (agreement.ts)
export function agreement(c: CompiledModel, peer: MujocoPeer, doc: Mjcf, seedValue: number): number {
  const state = c.createState();
  const { kron, mujoco } = accelerationsAt(state, doc, peer, randomState(state, rng(seedValue)));
  return Math.max(...kron.map((k, i) => Math.abs(mujoco[i] - k) / Math.max(1, Math.abs(k))));
}

/** why this compile is skipped: over --max-torn-n, or predicted over the CPU budget from the last two compiles (power law) */
function overBudget(n: number, mode: Mode, past: { n: number; ms: number }[], o: SweepOptions): string | undefined {
  if (mode === 'torn' && n > o.maxTornN) return `n > --max-torn-n ${o.maxTornN}`;
  const over = past.find((p) => p.ms > o.compileBudgetMs);
  if (over) return `compiling n=${over.n} took ${(over.ms / 1000).toFixed(1)} s of CPU, over the budget of ${o.compileBudgetMs / 1000} s`;
  if (past.length < 2) return undefined;
  const [a, b] = past.slice(-2);
  const exponent = Math.log(b.ms / a.ms) / Math.log(b.n / a.n);
  const predicted = b.ms * (n / b.n) ** Math.max(1, exponent);
  if (predicted > o.compileBudgetMs)
    return `compile predicted to take ${(predicted / 1000).toFixed(0)} s of CPU (n^${exponent.toFixed(1)} from n=${a.n}, ${b.n}), over the budget of ${o.compileBudgetMs / 1000} s`;
  return undefined;
}

/** a distinct, reproducible seed per row */
function seed(model: BenchModel, n: number, mode: BenchMode): number {
  return MODELS.findIndex((m) => m.name === model) * 100003 + n * 7 + ['torn', 'relaxed', 'mujoco'].indexOf(mode);
}
