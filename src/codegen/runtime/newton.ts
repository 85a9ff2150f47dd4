// The run-time driver of torn nonlinear loops: Newton's method (tearing
// paper: Newton on the tearing variables) with successive substitution
// before it, and for a kinematic loop's closure the dead-point and
// assembly-branch tests. The generated code emits only each block's
// straight-line pieces (the causal sequence and residues into r, the
// Jacobian into J), as functions of (t, x, u, p, w), and a record of the
// block (newtonBlock) that newtonSolve is called with (codegen's newton.ts,
// substitution.ts).
//
// Glossary: k tearing variables, z their workspace slots, r residuals, J the
// Jacobian dr/dz (row-major k x k), dz the last step, w the workspace.
import { doubles, luSolve } from './dense.ts';
import type { Piece, Report, Step, Workspace } from './types.ts';

/**
 * A loop closure whose constraint Jacobian at the solved position has an
 * unscaled rcond below 1e-5: the linkage is at a dead point or a change point
 * (for a four-bar, within ~1e-13 rad of it; rcond grows as the square root of
 * the distance), where the accelerations of the joints the loop determines
 * grow without bound and lose digits as eps / rcond^2 (a four-bar's crank
 * started 3e-15 rad from its change point has rcond 1.7e-6 and jumps from 4
 * to 715 rad/s in one 1 ms step). Integration there is meaningless: an error.
 */
export const DEAD_POINT_RCOND = 1e-5;
/**
 * Newton's solution off its first step (the linear prediction) by more than
 * this multiple of it: another branch. Measured on the planar four-bar: along
 * a run through its change point (step 1e-3) the largest ratio is 0.63, the
 * crank at 30 rad/s with steps of 0.005 to 0.03 (0.15 to 0.9 rad a step)
 * reaches 0.12 to 0.71, and at 0.05 (1.5 rad a step) Newton lands 10 rad
 * away where 2.3 were predicted (ratio 4.4).
 */
export const BRANCH_JUMP = 2;

/** accepted Newton iterates whose largest merit a new one must stay below (newtonSolve) */
export const MERIT_MEMORY = 5;

/** a torn nonlinear loop as newtonSolve reads it (newtonBlock) */
export interface NewtonBlock {
  readonly k: number;
  readonly block: number;
  readonly z: ArrayLike<number>;
  readonly r: Workspace;
  readonly J: Workspace;
  readonly residual: Piece;
  readonly jacobian: Piece;
  readonly fail: Report;
  readonly record: ArrayLike<number>;
  readonly maxSweeps: number;
  readonly stats: ArrayLike<number>;
  readonly step: Step | null;
  readonly dz: number[];
  readonly entry: number[];
  readonly merits: number[];
  readonly A: number[];
  readonly g: number[];
  readonly z0: number[];
  readonly firstStep: number[];
  readonly cond: number[];
}
// A torn nonlinear loop as newtonSolve reads it: k tearing variables in the
// workspace slots z, the arrays r (k) and J (k x k) that residual() and
// jacobian() fill (each a function of (t, x, u, p, w): the causal sequence
// and the residues, the Jacobian's prelude and entries), the module's error
// reporter fail, for a kinematic loop's closure the workspace slots of its
// branch record (newtonClosed; else none), for successive substitution its
// sweep limit (else 0), the slots of its statistics (evaluations, sweeps,
// max, fallbacks) and its step (substituteSweeps); scratch space for the
// rest. One shape for every block.
export function newtonBlock(
  k: number,
  block: number,
  z: ArrayLike<number>,
  r: Workspace,
  J: Workspace,
  residual: Piece,
  jacobian: Piece,
  fail: Report,
  record: ArrayLike<number>,
  maxSweeps: number,
  stats: ArrayLike<number>,
  step: Step | null,
): NewtonBlock {
  const closure = record.length ? k : 0;
  return {
    k,
    block,
    z,
    r,
    J,
    residual,
    jacobian,
    fail,
    record,
    maxSweeps,
    stats,
    step,
    dz: doubles(k),
    entry: doubles(k),
    merits: doubles(MERIT_MEMORY),
    A: doubles(k * k),
    g: doubles(k),
    // the last solution and Newton's first step from it (newtonClosed)
    z0: doubles(closure),
    firstStep: doubles(closure),
    cond: doubles(2),
  };
}

// tearing paper: Newton on the tearing variables, warm-started from the last
// solution kept in w; with maxSweeps, successive substitution first
// (substituteSweeps). Damped, non-monotone (Grippo, Lampariello and Lucidi): a step
// whose sum of squared residuals (the merit the Newton direction descends;
// the max norm need not fall) is not below the largest of the last
// MERIT_MEMORY accepted is halved. A monotone test stalls far from a solution
// where full steps converge (fuzz seed 25, a spatial loop assembled from a
// guess 0.8 off). When the damped iteration fails, it starts again from the
// same guess with full steps, which may cross a region where the merit rises
// (a gimbal of a ball joint) that the damped one cannot leave; then
// Levenberg-Marquardt (levenbergMarquardtStep). Phase 0 damped Newton, 1
// full steps, 2 Levenberg-Marquardt.
export function newtonSolve(b: NewtonBlock, t: number, x: ArrayLike<number>, u: ArrayLike<number>, p: ArrayLike<number>, w: Workspace): void {
  const k = b.k,
    z = b.z,
    r = b.r,
    J = b.J,
    dz = b.dz,
    entry = b.entry,
    merits = b.merits,
    closure = b.record.length > 0,
    f = b.firstStep;
  // the entry guess, for a closure also the last solution and no first step yet (newtonClosed)
  if (closure)
    for (let i = 0; i < k; i++) {
      b.z0[i] = w[z[i]];
      f[i] = 0;
      entry[i] = w[z[i]];
    }
  else for (let i = 0; i < k; i++) entry[i] = w[z[i]];
  if (b.maxSweeps > 0 && substituteSweeps(b, t, x, u, p, w)) return;
  let small = false,
    lambda = 1,
    last = Infinity,
    accepted = 0,
    phase = 0,
    best = Infinity,
    mu = 1e-3,
    retry = false;
  merits.fill(0);
  for (let it = 0; ; it++) {
    b.residual(t, x, u, p, w);
    let norm = 0,
      merit = 0;
    for (let i = 0; i < k; i++) {
      norm = Math.max(norm, Math.abs(r[i]));
      merit += r[i] * r[i];
    }
    if (phase === 0 && !(merit < last) && lambda > 1e-9 && it < 200) {
      lambda *= 0.5;
      for (let i = 0; i < k; i++) w[z[i]] += lambda * dz[i];
      continue;
    }
    // Levenberg-Marquardt's trial: one that does not lower the sum of squares is taken back and mu grows;
    // one that does is kept and mu shrinks
    if (phase === 2) {
      if (!retry && !(merit < last)) {
        for (let i = 0; i < k; i++) w[z[i]] += dz[i];
        mu *= 4;
        retry = true;
        if (mu <= 1e12) {
          it--;
          continue;
        }
      } else {
        if (!retry) mu = Math.max(mu / 3, 1e-15);
        retry = false;
        last = merit;
      }
    }
    if (norm <= 1e-12 || (small && norm <= 1e-6)) {
      if (closure) newtonClosed(b, t, x, u, p, w);
      return;
    }
    if (small || it >= 200 || !(norm < Infinity) || (phase === 2 && mu > 1e12)) {
      best = Math.min(best, norm);
      if (phase < 2) {
        for (let i = 0; i < k; i++) w[z[i]] = entry[i];
        phase++;
        small = false;
        lambda = 1;
        last = Infinity;
        mu = 1e-3;
        retry = false;
        it = -1;
        continue;
      }
      // the smallest residual of the three attempts (the full steps' may have diverged), and for a
      // kinematic loop the condition of the position it starts from (newtonStuck)
      if (closure) b.fail('newton', b.block, t, best, newtonStuck(b, t, x, u, p, w));
      else b.fail('newton', b.block, t, best);
    }
    b.jacobian(t, x, u, p, w);
    if (phase === 2) {
      if (!levenbergMarquardtStep(b, mu)) {
        mu *= 4;
        retry = true;
        it--;
        continue;
      }
      // a singular Jacobian on the way ends this phase: Levenberg-Marquardt's step exists where Newton's does not
    } else if (!(luSolve(k, J, r) > 0)) {
      small = true;
      it--;
      continue;
    }
    let step = 0,
      size = 0;
    const first = closure && it === 0; // the linear prediction of the change (newtonClosed)
    for (let i = 0; i < k; i++) {
      dz[i] = r[i];
      w[z[i]] -= r[i];
      step = Math.max(step, Math.abs(r[i]));
      size = Math.max(size, Math.abs(w[z[i]]));
      if (first) f[i] = -r[i];
    }
    small = phase < 2 && step <= 1e-14 * (1 + size);
    lambda = 1;
    if (phase < 2) {
      merits[accepted++ % MERIT_MEMORY] = merit;
      last = 0;
      for (let i = 0; i < MERIT_MEMORY; i++) last = Math.max(last, merits[i]);
    }
  }
}

// The converged test of a kinematic loop's position level. The constraint
// Jacobian J at the solution must not be singular (a dead point: unscaled
// rcond below DEAD_POINT_RCOND). As time advances, Newton must stay on its
// assembly branch, which three tests watch, in this order:
// - det J must keep its sign from one solve to the next. It vanishes at
//   every singular position of the loop with these state joints (dead
//   points, change points), so a change means the motion between the two
//   solves passed one, or Newton landed on the mirror assembly next to it.
// - warm-started from the last solution, Newton's first step is the
//   linear prediction of the change; a solution that differs from that
//   prediction by more than BRANCH_JUMP times it (plus 1e-6) means the step
//   was too large for the linearisation, which is how Newton lands on a far
//   assembly of the loop.
// - det J, extrapolated linearly in time from the last two solves, must not
//   change sign by now while the solution's keeps it: then the solution
//   turned back where det J went to zero, onto the other branch of a change
//   point, which keeps the sign. An RK4 step of 1e-3 does exactly this on
//   the four-bar of a + d = b + c, its crank just past pi (the rocker's
//   speed reverses and 79% of the energy goes), with no solve near enough
//   to the singular position for the rcond test and a first step that
//   predicts the change within 5% (signWatch).
// The record (b.record: slots of w) is signWatch's, of det J over its
// largest entry to the power k (closureCondition).
function newtonClosed(b: NewtonBlock, t: number, x: ArrayLike<number>, u: ArrayLike<number>, p: ArrayLike<number>, w: Workspace): void {
  const k = b.k,
    z = b.z,
    z0 = b.z0,
    f = b.firstStep,
    R = b.record,
    cond = b.cond;
  b.jacobian(t, x, u, p, w);
  closureCondition(k, b.J, cond);
  const rcond = cond[0],
    since = w[R[0]],
    recorded = w[R[1]] !== 0;
  if (!(rcond >= DEAD_POINT_RCOND)) b.fail('deadpoint', b.block, t, rcond);
  const verdict = signWatch(w, R, t, cond[1]);
  if (verdict === 1) b.fail('changepoint', b.block, t, rcond, since);
  let off = 0,
    predicted = 0,
    size = 0;
  for (let i = 0; i < k; i++) {
    off = Math.max(off, Math.abs(w[z[i]] - z0[i] - f[i]));
    predicted = Math.max(predicted, Math.abs(f[i]));
    size = Math.max(size, Math.abs(w[z[i]]));
  }
  if (recorded && advancedFrom(since, t) && off > BRANCH_JUMP * predicted + 1e-6 * (1 + size)) b.fail('branch', b.block, t, off);
  if (verdict === 2) b.fail('turnback', b.block, t, rcond, since);
}

// Times that differ by rounding alone (an RK4 step's end t + h and the next
// step's start) are one time: has time advanced from t1 to t?
function advancedFrom(t1: number, t: number): boolean {
  return t - t1 > 1e-10 * Math.abs(t);
}

// A quantity that must keep its sign along a run, such as det J of a loop's
// closure (newtonClosed) or the cosine of a Cardan joint's middle angle
// (pose-watch.ts): it is zero only at a singular position. Its record in w at
// the slots R: the time t1 of the last value and the value d1 (0: none yet),
// the time t0 < t1 of the value before it and d0, when the record started,
// and the smallest magnitude m1 of the values at t1 (an RK4 step evaluates
// twice at its middle). 1 when the sign changed since the last value (a
// singular position passed); 2 when the sign is kept but the value came
// near zero within a step: the last two values, extrapolated linearly in
// time to t, change sign (it turned back where it went to zero, or moved too
// fast to be followed), or it turned back after a span that brought it
// nearer to zero by more than was left (|d0| - m1 > m1: a fold, where det J
// goes to zero like the square root of the distance and the motion turns
// back, seen by no extrapolation when the stages scatter about the turn);
// else 0. Both tests scale with the step: a smooth value crosses zero in
// neither, and one that comes near zero within a step too long to resolve
// it is reported, whatever the step size. A time before t0 (a new run, a
// step retried) starts the record again; values repeated at the time a
// record started (a caller evaluating several states at t = 0) are not
// compared; an earlier time after t0 (Cash-Karp's stage at 7/8 of a step,
// after the one at its end) takes t1's place. The extrapolation reaches at
// most 8 times the span it is taken from.
export function signWatch(w: Workspace, R: ArrayLike<number>, t: number, value: number): 0 | 1 | 2 {
  const t1 = w[R[0]],
    t0 = w[R[2]],
    d0 = w[R[3]],
    m1 = w[R[5]],
    size = Math.abs(value);
  let d1 = w[R[1]];
  if (t < t1 && !(t > t0) && d1 !== 0) {
    w[R[4]] = t;
    d1 = 0;
  }
  const advanced = advancedFrom(t1, t);
  let verdict: 0 | 1 | 2 = 0;
  if (d1 !== 0 && value > 0 !== d1 > 0 && (advanced || t < t1 || t1 > w[R[4]])) verdict = 1;
  else if (advanced && d1 !== 0 && d0 !== 0 && t - t1 <= 8 * (t1 - t0) && d1 + ((d1 - d0) * (t - t1)) / (t1 - t0) > 0 !== d1 > 0) verdict = 2;
  else if (advanced && d1 !== 0 && d0 !== 0 && size > m1 && Math.abs(d0) - m1 > m1) verdict = 2;
  if (d1 === 0) {
    w[R[4]] = t;
    w[R[3]] = 0;
  } else if (advanced) {
    w[R[2]] = t1;
    w[R[3]] = d1;
  }
  w[R[5]] = advanced || d1 === 0 ? size : Math.min(m1, size);
  w[R[0]] = t;
  w[R[1]] = value;
  return verdict;
}

// A closure's J (k x k, overwritten) by one LU factorisation with partial
// pivoting: into out[0] its smallest pivot over its largest entry, with no
// scaling, a lower bound of the reciprocal condition number for a matrix
// whose rows share a unit, such as a loop's position constraints (row
// scaling would hide a constraint that no joint can move, the dead point of
// a linkage), 0 when J is singular; into out[1] det J over its largest entry
// to the power k, smooth in the position and zero where the loop is
// singular (newtonClosed).
function closureCondition(k: number, J: Workspace, out: Workspace): void {
  let large = 0;
  for (let i = 0; i < k * k; i++) large = Math.max(large, Math.abs(J[i]));
  out[0] = 0;
  out[1] = 0;
  if (!(large > 0 && large < Infinity)) return;
  let small = Infinity,
    det = 1;
  for (let q = 0; q < k; q++) {
    let m = q,
      big = Math.abs(J[q * k + q]);
    for (let i = q + 1; i < k; i++) {
      const v = Math.abs(J[i * k + q]);
      if (v > big) {
        big = v;
        m = i;
      }
    }
    small = Math.min(small, big);
    if (!(big > 0)) return;
    if (m !== q) {
      det = -det;
      for (let j = q; j < k; j++) {
        const s = J[q * k + j];
        J[q * k + j] = J[m * k + j];
        J[m * k + j] = s;
      }
    }
    det *= J[q * k + q] / large;
    for (let i = q + 1; i < k; i++) {
      const l = J[i * k + q] / J[q * k + q];
      for (let j = q + 1; j < k; j++) J[i * k + j] -= l * J[q * k + j];
    }
  }
  out[0] = small / large;
  out[1] = det;
}

// A kinematic loop that none of the attempts closes: the unscaled rcond of
// its constraint Jacobian at the last closed position (the entry guess). A
// small one means the motion ran into a dead point of the chosen state joints
// (an RSSR crank at its extreme angle), past which the loop does not close at
// all, and the error says so (compiled.ts).
function newtonStuck(b: NewtonBlock, t: number, x: ArrayLike<number>, u: ArrayLike<number>, p: ArrayLike<number>, w: Workspace): number {
  for (let i = 0; i < b.k; i++) w[b.z[i]] = b.entry[i];
  b.residual(t, x, u, p, w);
  b.jacobian(t, x, u, p, w);
  closureCondition(b.k, b.J, b.cond);
  return b.cond[0];
}

// The third attempt, when damped Newton and full steps both fail from the
// same guess: Levenberg-Marquardt (Marquardt 1963, with Nielsen's update of
// mu), the step (J^T J + mu diag(J^T J)) dz = J^T r into r. Near a singular
// Jacobian along the way (a universal joint passing its gimbal) it turns
// towards gradient steps instead of jumping, and closes loops from guesses
// where Newton does not (fuzz seed 1286: an RRPUU loop assembled from random
// angles, which the oracle's minimum-norm Newton closes). False when the
// damped normal equations are singular too.
function levenbergMarquardtStep(b: NewtonBlock, mu: number): boolean {
  const k = b.k,
    J = b.J,
    r = b.r,
    A = b.A,
    g = b.g;
  for (let a = 0; a < k; a++) {
    let ga = 0;
    for (let i = 0; i < k; i++) ga += J[i * k + a] * r[i];
    g[a] = ga;
    for (let c = 0; c <= a; c++) {
      let s = 0;
      for (let i = 0; i < k; i++) s += J[i * k + a] * J[i * k + c];
      A[a * k + c] = s;
      A[c * k + a] = s;
    }
  }
  for (let a = 0; a < k; a++) A[a * k + a] += mu * A[a * k + a] + 1e-300;
  if (!(luSolve(k, A, g) > 0)) return false;
  for (let a = 0; a < k; a++) r[a] = g[a];
  return true;
}

// Successive substitution (tearing paper, the algorithms after "Branch
// tearing in bipartite graphs"; substitution.ts): each residue equation
// solved for its own tearing variable by one step along its own derivative,
// z_i -= r_i / J_ii, in the paper's Jacobi order (the causal sequence runs
// once per sweep). The step is the block's own straight-line piece
// (substitution.ts: with the slots and the diagonal's entries as literals, V8
// folds a constant diagonal, which this loop over z could not), false when
// a J_ii vanishes. True when the residuals vanish; a sweep that does not
// lower the largest residual, a vanishing diagonal or the sweep limit
// restores the entry guess for Newton, and the fallback is counted.
function substituteSweeps(b: NewtonBlock, t: number, x: ArrayLike<number>, u: ArrayLike<number>, p: ArrayLike<number>, w: Workspace): boolean {
  const k = b.k,
    z = b.z,
    r = b.r,
    s = b.stats; // s: evaluations, sweeps, max, fallbacks
  w[s[0]] += 1;
  let sweep = 0,
    converged = false;
  for (let previous = Infinity; sweep <= b.maxSweeps; sweep++) {
    b.residual(t, x, u, p, w);
    let norm = 0;
    for (let i = 0; i < k; i++) norm = Math.max(norm, Math.abs(r[i]));
    if (norm <= 1e-12) {
      converged = true;
      break;
    }
    if (!(norm < previous) || sweep === b.maxSweeps) break;
    previous = norm;
    b.jacobian(t, x, u, p, w);
    if (!b.step!(t, x, u, p, w)) break; // a block with maxSweeps > 0 has its step (codegen's newton.ts)
  }
  w[s[1]] += sweep;
  if (sweep > w[s[2]]) w[s[2]] = sweep;
  if (converged) return true;
  w[s[3]] += 1;
  for (let i = 0; i < k; i++) w[z[i]] = b.entry[i];
  return false;
}
