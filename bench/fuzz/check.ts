// One fuzz case: (seed) => exactly one class, or a failure with one line of
// detail. The mechanism is compiled torn and relaxed through the public API,
// evaluated at one random state with random inputs, and compared with the
// oracle (test/oracles: joint-tree.ts for trees, loops.ts for loops; with
// free and ball joints floating.ts for trees and loops.ts on the Cardan
// equivalent for loops, bench/fuzz/floating.ts). Coordinates are velocity
// coordinates: a free joint's v, w and a ball joint's w count as six and
// three, compared as der(v), der(w) with the oracle's dv.
//
// Classes:
//   compile-error  both modes throw a typed KronError of the same class at compile
//   run-error      both modes throw a typed SimulationError in derivatives(),
//                  and the oracle agrees that the state is singular (or it is
//                  in the grey zone, see below)
//   agree          torn, relaxed and the oracle agree on every tree coordinate's
//                  acceleration (state joints: der(qd), der(v), der(w); rest joints: qdd)
// The singular family (singular.ts) is judged by a run instead: run-error,
// agree, or the failure silent. So is the contact family (contact.ts): agree,
// or the failures nan, tunnel, energy, disagree, run-failed.
// Failures: crash (an error that is not a KronError, an exception of the
// fuzzer's own generator or oracle, or a worker that died on the case:
// main.ts, worker.ts), timeout (no answer within main.ts' --timeout), nan (a non-finite
// derivative with no error), disagree (with the factor over the tolerance),
// one-sided (one mode singular or failing, the other answering), compile-mismatch
// (typed errors of different classes), oracle-singular (Kron answers where the
// oracle says singular), kron-singular (Kron singular where the oracle is
// regular and well conditioned), not-closed (Kron's loop position or velocity
// does not satisfy the oracle's constraints), no-assembly (Kron's Newton fails
// where the oracle closes the loop on the start's assembly branch, by
// continuation from the assembled start: loop-assembly.ts continueLoop; a state past
// a fold of that branch is a run-error), rest-choice (both
// modes fail because the rest joints the builder chose cannot close the loop:
// the constraint Jacobian restricted to them is rank deficient at the
// assembled start position, while the whole mechanism's is not).
//
// Tolerance, per coordinate: |a_i - o_i| <= tol (max_j |o_j| + 1) + K s_i.
// The "+ 1" (1 rad/s^2 or 1 m/s^2) keeps states with near-zero accelerations
// from demanding absolute agreement to 1e-8 of nothing; the max norm keeps
// one large acceleration from hiding a wrong small one only up to that scale.
// tol = 1e-8, widened by the oracle's condition estimate: + cond * 1e-15
// (backward-stable solves lose cond * eps; for loops cond is that of G times
// that of the reduced mass matrix in mass-scaled coordinates) and, for loops,
// + the size of the oracle's last refinement step (loops.ts). s_i is the
// loop oracle's per-coordinate data sensitivity (loops.ts,
// dataSensitivity): how far coordinate i's acceleration moves when the KKT
// system's numbers are off by one rounding. It is ~1e-13 and below in
// ordinary states and matters only next to heavy bodies (1e12 kg), where
// constraint forces of ~1e13 N act through light links: there no
// computation in doubles, Kron's or the oracle's, knows those links'
// accelerations better (fuzz seeds 167, 1802 at 50 digits,
// bench/fuzz/adjudicate.py). It is per coordinate so that it widens only
// the coordinates it concerns: a heavy coordinate that is off by 1e-5 where
// its own sensitivity is 1e-16 still fails. K = SENSITIVITY_FACTOR: Kron's
// numbers pass through more operations than the oracle's, and two results
// each within s_i of the truth differ by up to 2 s_i. The widening is
// printed whenever it exceeds 1e-8.
//
// Grey zone: a scaled smallest eigenvalue of M (for loops: of the reduced
// mass matrix in mass-scaled coordinates, loops.ts) within
// [GREY_LOW, GREY_HIGH], or a relative singular value of G within
// [RANK_LOW, RANK_HIGH], is too close to the threshold to say which side
// Kron should fall on; there either a typed singular error or agreement
// (with the widened tolerance) is accepted, and the case is counted as grey.
// On a loop with ball or free joints the oracle's eigenvalue is one of Cardan
// coordinates, Kron's are quaternion rates: the zone's bounds on it move
// out by cond(J)^2 of the Cardan Jacobians (floating.ts cardanSpread).
import { KronError, SimulationError, compile, type CompiledModel, type Mode } from '../../src/index.ts';
import { expand, forwardDynamics } from '../../test/oracles/joint-tree.ts';
import { assemble, columnRank, continueLoop } from '../../test/oracles/loop-assembly.ts';
import { isDrivenCut, loopDynamics } from '../../test/oracles/loops.ts';
import { prng } from '../../test/multibody/random-tree.ts';
import { buildMechanism, isFloating, oracleCoordinates, oracleStart, oracleSystem } from './describe.ts';
import { angularCoordinates, cardanSpread, floatingLoopDynamics, floatingTreeDynamics } from './floating.ts';
import { generate, loopLinks } from './generate.ts';
import { trajectoryCase } from './singular.ts';
import { contactCase } from './contact.ts';
import { type MechanismSpec, features, positionSignals, velocitySignals } from './spec.ts';

export type CaseClass = 'compile-error' | 'run-error' | 'agree';
export type FailureKind =
  | 'crash'
  | 'silent'
  | 'timeout'
  | 'nan'
  | 'disagree'
  | 'one-sided'
  | 'compile-mismatch'
  | 'oracle-singular'
  | 'kron-singular'
  | 'not-closed'
  | 'no-assembly'
  | 'rest-choice'
  | 'tunnel'
  | 'energy'
  | 'run-failed';

export interface CaseResult {
  seed: number;
  shape: string;
  cls?: CaseClass;
  failure?: { kind: FailureKind; detail: string };
  /** in the grey zone of the singularity tests */
  grey?: boolean;
  /** notes worth counting: e.g. a compile error on a mechanism the oracle finds regular */
  note?: string;
  /** what the mechanism contains (spec.ts features()) */
  features?: string;
  /** agree, but the loop was closed away from the start's assembly branch (otherBranch) */
  branch?: string;
}

export const TOL = 1e-8;
/** K of the header: the loop oracle's data sensitivity, times this, is allowed per coordinate */
export const SENSITIVITY_FACTOR = 16;
const GREY_LOW = 1e-14,
  GREY_HIGH = 1e-8;
const RANK_LOW = 1e-10,
  RANK_HIGH = 1e-6;
const MODES: Mode[] = ['torn', 'relaxed'];

type Outcome = { ok: true; c: CompiledModel } | { ok: false; error: unknown };

const describeError = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message.split('\n')[0].slice(0, 200)}` : String(e));

/** the code compiled: --target of main.ts (the WebAssembly target is checked against the JavaScript one by compile()) */
const TARGET = process.env.KRON_FUZZ_TARGET === 'wasm' ? 'wasm' : 'js';

export function tryCompile(spec: MechanismSpec, mode: Mode): Outcome {
  try {
    return { ok: true, c: compile(buildMechanism(spec), { mode, target: TARGET }) };
  } catch (error) {
    return { ok: false, error };
  }
}

export interface State {
  x: Float64Array;
  inputs: Map<string, number>;
}

// (spec, compiled) => a random state near the start values (loops stay closable) and random inputs;
// a free joint's r and every quaternion moved as an angle is, the quaternions then scaled back to |Q| = 1
export function randomState(spec: MechanismSpec, c: CompiledModel): State {
  const rnd = prng(spec.seed * 7919 + 17);
  const onLoop = loopLinks(spec);
  const x = c.x0();
  c.stateNames.forEach((n, i) => {
    const link = Number(/^j(\d+)\./.exec(n)?.[1] ?? 0) - 1;
    const isSpeed = /\.qd(\[|$)/.test(n) || /\.[vw]\[/.test(n);
    if (isSpeed) x[i] = -2 + 4 * rnd();
    else x[i] += (onLoop.has(link) ? 0.05 : spec.links[link]?.joint === 'prismatic' ? 0.3 : 1) * (2 * rnd() - 1);
  });
  spec.links.forEach((l, k) => {
    if (l.joint !== 'ball' && l.joint !== 'free') return;
    const at = [1, 2, 3, 4].map((j) => c.stateNames.indexOf(`j${k + 1}.Q[${j}]`));
    const norm = Math.hypot(...at.map((j) => x[j]));
    for (const j of at) x[j] /= norm;
  });
  const inputs = new Map<string, number>();
  for (const k of velocitySignals(spec)) inputs.set(k.tau, -5 + 10 * rnd());
  spec.cuts.forEach((cut, i) => (cut.type !== 'ball' && isDrivenCut(cut.type) ? inputs.set(`c${i + 1}.tau`, -5 + 10 * rnd()) : undefined));
  return { x, inputs };
}

type Coordinates = ReturnType<typeof kronCoordinates>;
export type Run = { ok: true; dx: Float64Array; k: Coordinates } | { ok: false; error: unknown };

// reading the rest joints' signals runs the model's outputs, which can throw as well: one try for both
export function evaluate(spec: MechanismSpec, c: CompiledModel, s: State): Run {
  try {
    for (const [n, v] of s.inputs) c.setInput(n, v);
    const dx = new Float64Array(s.x.length);
    c.derivatives(0, s.x, dx);
    return { ok: true, dx, k: kronCoordinates(spec, c, s, dx) };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * Kron's positions q, and velocities qd, accelerations qdd and inputs tau of every velocity coordinate
 * (spec.ts velocitySignals): states from x and dx, rest joints from the signals
 */
function kronCoordinates(spec: MechanismSpec, c: CompiledModel, s: State, dx: Float64Array) {
  const names = velocitySignals(spec);
  const index = (n: string) => c.stateNames.indexOf(n);
  const q = positionSignals(spec).map((n) => (index(n) >= 0 ? s.x[index(n)] : c.signal(n)));
  const qd = names.map((k) => (index(k.qd) >= 0 ? s.x[index(k.qd)] : c.signal(k.qd)));
  const qdd = names.map((k) => (index(k.qd) >= 0 ? dx[index(k.qd)] : c.signal(k.qdd)));
  const tau = names.map((k) => s.inputs.get(k.tau) ?? 0);
  return { q, qd, qdd, tau };
}

type OracleAnswer =
  | { singular: false; qdd: number[]; widen: number; /** per coordinate, absolute (loops) */ slack: number[]; grey: boolean }
  | { singular: true; why: string; grey: boolean }
  | { closed: false; detail: string };

// (spec, Kron's coordinates) => the oracle's accelerations at Kron's q, qd
function oracle(spec: MechanismSpec, q: number[], qd: number[], tau: number[], inputs: Map<string, number>): OracleAnswer {
  const sys = withCutDrives(spec, inputs);
  if (spec.cuts.length === 0) {
    const r = isFloating(spec) ? floatingTreeDynamics(spec, q, qd, tau) : forwardDynamics(expand(sys.tree), q, qd, tau);
    const grey = r.minScaled >= GREY_LOW && r.minScaled <= GREY_HIGH;
    return r.singular ? { singular: true, why: r.why, grey } : { singular: false, qdd: r.x, widen: r.cond * 1e-15, slack: r.x.map(() => 0), grey };
  }
  const r = isFloating(spec) ? floatingLoopDynamics(spec, sys, q, qd, tau) : { ...loopDynamics(sys, q, qd, tau), spread: 1 };
  if (r.phi > 1e-9 || r.Gqd > 1e-8 * (1 + Math.max(...qd.map(Math.abs))))
    return { closed: false, detail: `|phi(q)| = ${r.phi.toExponential(2)}, |G qd| = ${r.Gqd.toExponential(2)}` };
  if (r.singular) return { singular: true, why: r.why, grey: /rank/.test(r.why) ? r.rankG >= RANK_LOW : r.minScaled * r.spread >= GREY_LOW };
  return { singular: false, qdd: r.qdd, widen: r.cond * 1e-15 + r.err, slack: r.sensitivity.map((v) => SENSITIVITY_FACTOR * v), grey: nearSingular(r) };
}

/**
 * a regular loop near the singularity tests' thresholds (the grey zone of the header); spread: how far the
 * oracle's coordinates may move the mass-scaled eigenvalue from Kron's (floating.ts cardanSpread)
 */
function nearSingular(r: { rankG: number; minScaled: number; spread: number }): boolean {
  return r.rankG <= RANK_HIGH || r.minScaled / r.spread <= GREY_HIGH;
}

/** the oracle's system with the cut revolutes' drive inputs */
export function withCutDrives(spec: MechanismSpec, inputs: Map<string, number>) {
  const sys = oracleSystem(spec);
  sys.cuts.forEach((c, i) => (c.tau = inputs.get(`c${i + 1}.tau`) ?? 0));
  return sys;
}

const maxAbs = (x: readonly number[]) => x.reduce((m, v) => Math.max(m, Math.abs(v)), 0);

// (seed) => the case's class or failure
export function runCase(seed: number, spec: MechanismSpec = generate(seed)): CaseResult {
  if (spec.trajectory) return trajectoryCase(seed, spec, spec.trajectory, buildMechanism);
  if (spec.contact) return contactCase(seed, spec.contact);
  const base = { seed, shape: spec.shape, features: features(spec) };
  const fail = (kind: FailureKind, detail: string): CaseResult => ({ ...base, failure: { kind, detail } });
  const compiled = MODES.map((m) => tryCompile(spec, m));
  // compile
  for (const [i, o] of compiled.entries()) if (!o.ok && !(o.error instanceof KronError)) return fail('crash', `${MODES[i]} compile: ${describeError(o.error)}`);
  if (!compiled[0].ok || !compiled[1].ok) {
    const [t, r] = compiled;
    if (!t.ok && !r.ok) {
      const [et, er] = [t.error as KronError, r.error as KronError];
      return et.name === er.name
        ? { ...base, cls: 'compile-error', note: describeError(et) }
        : fail('compile-mismatch', `torn ${describeError(et)} | relaxed ${describeError(er)}`);
    }
    const [bad, mode] = !t.ok ? [t.error, 'torn'] : [(r as { error: unknown }).error, 'relaxed'];
    return fail('one-sided', `${mode} compile fails, the other compiles: ${describeError(bad)}`);
  }
  const [torn, relaxed] = [compiled[0].c, compiled[1].c];
  const state = randomState(spec, torn);
  if (relaxed.stateNames.join() !== torn.stateNames.join())
    return fail('one-sided', `states differ: torn ${torn.stateNames.join(',')} relaxed ${relaxed.stateNames.join(',')}`);
  const runs = [evaluate(spec, torn, state), evaluate(spec, relaxed, state)];
  for (const [i, r] of runs.entries()) if (!r.ok && !(r.error instanceof KronError)) return fail('crash', `${MODES[i]} derivatives: ${describeError(r.error)}`);
  for (const [i, r] of runs.entries())
    if (r.ok && !r.dx.every(Number.isFinite))
      return fail('nan', `${MODES[i]} derivatives returned [${[...r.dx].map((v) => v.toPrecision(4)).join(', ')}] with no error`);
  const answered = runs.map((r) => r.ok);
  if (!answered[0] && !answered[1]) return bothFailed(spec, torn, state, runs, base, fail);
  if (answered[0] !== answered[1]) {
    const bad = answered[0] ? 1 : 0;
    const k = (runs[1 - bad] as { k: Coordinates }).k;
    const o = oracle(spec, k.q, k.qd, k.tau, state.inputs);
    const verdict =
      'closed' in o
        ? `oracle: ${MODES[1 - bad]}'s loop not closed (${o.detail})`
        : o.singular
          ? `oracle: singular (${o.why})`
          : `oracle: regular, qdd [${fmt(o.qdd)}]`;
    return fail(
      'one-sided',
      `${MODES[bad]} throws ${describeError((runs[bad] as { error: unknown }).error)}; ${MODES[1 - bad]} answers qdd [${fmt(k.qdd)}]; ${verdict}`,
    );
  }
  // both answered: compare each with the oracle at its own q, qd (their rest joints may differ in principle)
  const results = runs.map((r) => (r as { k: Coordinates }).k);
  let grey = false;
  const lines: string[] = [];
  for (const [i, k] of results.entries()) {
    const o = oracle(spec, k.q, k.qd, k.tau, state.inputs);
    if ('closed' in o) return fail('not-closed', `${MODES[i]}'s loop position/velocity violates the oracle's constraints: ${o.detail}`);
    grey ||= o.grey;
    if (o.singular) {
      if (o.grey) continue;
      return fail('oracle-singular', `oracle: ${o.why}; torn qdd [${fmt(results[0].qdd)}], relaxed qdd [${fmt(results[1].qdd)}]`);
    }
    const scale = maxAbs(o.qdd) + 1;
    const tol = TOL + o.widen;
    const errs = k.qdd.map((v, j) => Math.abs(v - o.qdd[j]));
    const over = errs.map((e, j) => e / (tol * scale + o.slack[j]));
    const worst = over.reduce((b, v, j) => (!(v <= over[b]) ? j : b), 0);
    const slack = maxAbs(o.slack) / scale;
    const widened =
      tol > 2 * TOL || slack > TOL ? ` widened to ${tol.toExponential(1)}${slack > TOL ? ` + data sensitivity up to ${slack.toExponential(1)}` : ''}` : '';
    if (!over.every((v) => v <= 1))
      lines.push(
        `${MODES[i]} off by ${(maxAbs(errs) / scale).toExponential(2)} relative (coordinate ${worst + 1}: ${over[worst].toPrecision(3)}x its tol${widened}): kron [${fmt(k.qdd)}] oracle [${fmt(o.qdd)}]`,
      );
  }
  if (lines.length) return { ...fail('disagree', lines.join(' | ')), grey };
  return { ...base, cls: 'agree', grey, branch: otherBranch(spec, torn, state, results[0]) };
}

/** the coordinates a loop determines (not states of the compiled model), as indices into the velocity coordinates (= the oracle tree's) */
function restIndices(spec: MechanismSpec, c: CompiledModel): number[] {
  return velocitySignals(spec)
    .map((k, i) => (c.stateNames.includes(k.qd) ? -1 : i))
    .filter((i) => i >= 0);
}

const wrapAngle = (x: number) => Math.atan2(Math.sin(x), Math.cos(x));

/**
 * Did Kron close the loop on another assembly branch than the start's? (A
 * note, not a failure: at t = 0 the start values of the rest coordinates
 * are guesses, and Kron's answer is checked at its own position.) Only
 * where some rest coordinate moved more than 0.5 from its start value: the
 * oracle's continuation (loop-assembly.ts continueLoop) then says where the start's
 * branch is at this state, angles compared modulo 2 pi.
 */
function otherBranch(spec: MechanismSpec, torn: CompiledModel, state: State, k: Coordinates): string | undefined {
  if (!spec.cuts.length) return undefined;
  const start = oracleStart(spec),
    rest = restIndices(spec, torn);
  const kq = oracleCoordinates(spec, k.q, k.qd, k.tau).q;
  const angular = angularCoordinates(spec);
  const off = (a: readonly number[], i: number) => Math.abs(angular[i] ? wrapAngle(kq[i] - a[i]) : kq[i] - a[i]);
  const moved = Math.max(0, ...rest.map((i) => Math.abs(kq[i] - start[i])));
  if (!(moved > 0.5)) return undefined;
  const target = start.map((v, i) => (rest.includes(i) ? v : kq[i]));
  const along = continueLoop(withCutDrives(spec, state.inputs), start, target, rest);
  if (!along.closed) return `closed past a fold of the start's branch (rest coordinates moved up to ${moved.toPrecision(3)})`;
  const gap = Math.max(...rest.map((i) => off(along.q, i)));
  return gap > 1e-6
    ? `closed on another branch: rest coordinates up to ${gap.toPrecision(3)} from the start's branch (moved up to ${moved.toPrecision(3)})`
    : undefined;
}

// both modes threw typed errors at run time: a run-error if the oracle agrees it is singular (or cannot close the loop)
function bothFailed(
  spec: MechanismSpec,
  torn: CompiledModel,
  state: State,
  runs: Run[],
  base: { seed: number; shape: string; features: string },
  fail: (k: FailureKind, d: string) => CaseResult,
): CaseResult {
  const msg = runs.map((r, i) => `${MODES[i]}: ${describeError((r as { error: unknown }).error)}`).join(' | ');
  if (!runs.every((r) => !r.ok && r.error instanceof SimulationError)) return fail('crash', `typed errors that are not SimulationError at run time: ${msg}`);
  // the oracle's view at the same state: for loops, close it itself from the start values (the rest
  // joints' positions guessed there); the oracle tree's coordinates (describe.ts oracleCoordinates)
  const names = velocitySignals(spec);
  const index = (n: string) => torn.stateNames.indexOf(n);
  const specStart = spec.links.flatMap((l) => l.q);
  const qx = positionSignals(spec).map((n, i) => (index(n) >= 0 ? state.x[index(n)] : specStart[i]));
  // rest speeds from G qd = 0 are not needed for the singularity verdict of M / G: use the states' qd, rest 0
  const vx = names.map((k) => (index(k.qd) >= 0 ? state.x[index(k.qd)] : 0));
  const tx = names.map((k) => state.inputs.get(k.tau) ?? 0);
  const rest = restIndices(spec, torn);
  const { q: guess, v: qd, tau } = oracleCoordinates(spec, qx, vx, tx);
  let q = guess;
  if (spec.cuts.length) {
    const sys = withCutDrives(spec, state.inputs),
      start = oracleStart(spec);
    // the rest joints matter where Kron failed to close the loop (Newton, or its Jacobian); a singular
    // velocity or acceleration system is judged by the oracle at the closed state below
    const closing = /Newton|Jacobian of the algebraic loop/.test(msg);
    const [restRank, allRank] = closing
      ? [
          columnRank(sys, start, rest),
          columnRank(
            sys,
            start,
            start.map((_, i) => i),
          ),
        ]
      : [1, 1];
    if (restRank <= RANK_LOW && allRank > RANK_HIGH) {
      return fail(
        'rest-choice',
        `${msg}; the rest joints' constraint Jacobian at the assembled start has sigma_min/sigma_max ${restRank.toExponential(1)} (rest ${rest.map((i) => names[i].q ?? names[i].qd).join(', ')}), the mechanism's ${allRank.toExponential(1)}`,
      );
    }
    // the loop closed on the start's assembly branch: the one Kron's Newton, warm-started from the start, is after
    const along = continueLoop(sys, start, guess, rest);
    // where Kron closed the loop and failed later (a singular mass matrix), any branch at this state will do
    const closed = along.closed ? along.q : closing ? undefined : assemble(sys, guess, rest);
    if (!closed) {
      // a mass matrix that is singular everywhere (a massless link free to move) is singular at the start
      // position too, which closes by construction: say so rather than blame the loop
      const atStart = loopDynamics(
        sys,
        start,
        start.map(() => 0),
        start.map(() => 0),
      );
      if (atStart.singular && !/rank/.test(atStart.why))
        return { ...base, cls: 'run-error', note: `oracle: singular at the assembled start (the state does not close with these rest joints): ${atStart.why}` };
      const fold = along.closed
        ? ''
        : ` (the state is past a fold of the start's branch: the oracle's continuation stops ${(100 * along.reached).toFixed(1)}% of the way, the rest coordinates' sigma_min/sigma_max ${along.rank.toExponential(1)})`;
      return { ...base, cls: 'run-error', note: `loop does not close (oracle agrees)${fold}: ${msg}` };
    }
    q = closed;
  }
  if (spec.cuts.length) {
    const r = loopDynamics(withCutDrives(spec, state.inputs), q, qd, tau);
    if (r.singular) return { ...base, cls: 'run-error', grey: false, note: `oracle: ${r.why}` };
    if (/Newton/.test(msg))
      return fail('no-assembly', `both modes: ${msg}; the oracle closes the loop on the start's branch and finds it regular (cond ${r.cond.toExponential(2)})`);
    return nearSingular({ ...r, spread: cardanSpread(spec, q) })
      ? { ...base, cls: 'run-error', grey: true }
      : fail(
          'kron-singular',
          `${msg}; oracle regular: G's sigma_min/sigma_max ${r.rankG.toExponential(2)}, reduced mass-scaled matrix's smallest eigenvalue ${r.minScaled.toExponential(2)}, cond ${r.cond.toExponential(2)}`,
        );
  }
  const r = isFloating(spec) ? floatingTreeDynamics(spec, qx, vx, tx) : forwardDynamics(expand(oracleSystem(spec).tree), q, qd, tau);
  if (r.singular) return { ...base, cls: 'run-error', grey: r.minScaled >= GREY_LOW, note: `oracle: ${r.why}` };
  if (r.minScaled <= GREY_HIGH) return { ...base, cls: 'run-error', grey: true };
  return fail('kron-singular', `${msg}; oracle regular: scaled min eigenvalue ${r.minScaled.toExponential(2)}, cond ${r.cond.toExponential(2)}`);
}

const fmt = (v: ArrayLike<number>) => Array.from(v, (x) => x.toPrecision(6)).join(', ');
