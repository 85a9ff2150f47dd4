// Oracle: closing kinematic loops in plain numbers, for the fuzzer's
// verdicts (bench/fuzz/check.ts) and export (export-case.ts): the rank of
// the constraint Jacobian restricted to chosen coordinates, Newton's method
// on the rest coordinates (assemble), and the continuation of a closed
// position along its assembly branch (continueLoop). The constraints are
// loops.ts' own.
import { expand } from './joint-tree.ts';
import { type LoopSystem, constraintSystem, constraints } from './loops.ts';
import { svdColumns } from './accurate.ts';
import { maxAbs } from './symmetric.ts';

const dotn = (a: readonly number[], b: readonly number[]) => a.reduce((s, v, i) => s + v * b[i], 0);

/**
 * Relative smallest singular value (sigma_min / sigma_max) of the constraint
 * Jacobian restricted to some coordinates (e.g. the rest joints a builder
 * chose to close the loops with): 0 when those coordinates cannot move the
 * cut in every constrained direction, whatever the rest of the mechanism can.
 */
export function columnRank(sys: LoopSystem, q: readonly number[], columns: readonly number[]): number {
  const { G } = constraintSystem(
    sys,
    expand(sys.tree),
    q,
    q.map(() => 0),
  );
  const m = columns.length,
    c = G.length;
  if (m === 0 || c === 0) return 1;
  const { sigma } = svdColumns(
    G.map((row) => columns.map((i) => row[i])),
    m,
  );
  return c > m ? 0 : sigma[c - 1] / sigma[0];
}

/**
 * The loop closed by Newton's method on the rest coordinates (indices into
 * q), warm-started from q: the oracle's own answer to "does this loop close
 * near here". Returns q with the rest coordinates solved, or undefined.
 */
export function assemble(sys: LoopSystem, q: readonly number[], rest: readonly number[]): number[] | undefined {
  const x = expand(sys.tree);
  const y = [...q];
  for (let it = 0; it < 50; it++) {
    const phi = constraints(sys, x, y);
    if (maxAbs(phi) < 1e-12) return y;
    const { G } = constraintSystem(
      sys,
      x,
      y,
      y.map(() => 0),
    );
    const J = G.map((row) => rest.map((i) => row[i]));
    const step = solveSquare(
      J,
      phi.map((v) => -v),
    );
    if (!step) return undefined;
    rest.forEach((i, k) => (y[i] += step[k]));
  }
  return maxAbs(constraints(sys, x, y)) < 1e-9 ? y : undefined;
}

export type Continuation = { closed: true; q: number[] } | { closed: false; reached: number; rank: number };

/** the largest move of a rest coordinate that one continuation step may make (rad or m) */
const MAX_REST_STEP = 0.1;

/**
 * The loop closed at `target`'s independent coordinates on the assembly
 * branch of `start` (a closed position): the independent coordinates moved
 * from start to target in steps, the rest coordinates (indices into q)
 * followed by assemble() from the previous step, each step halved where
 * Newton fails or moves a rest coordinate by more than MAX_REST_STEP, down
 * to 1/4096 of the way. Where no step closes the loop (a fold of the
 * branch: the rest coordinates' constraint Jacobian loses rank there), says
 * how far it got and that Jacobian's relative rank.
 * Why not assemble() from the target: its full steps may wander onto
 * another branch, hundreds of radians away (fuzz seeds 7001248, 9000246
 * before the axis-angle fix), which says nothing about the start's; near a
 * singular position even short steps of it can (fuzz seed 11000016: rest
 * angles 2000 rad away from a step of 1/16 of 0.04 rad), hence the bound.
 */
export function continueLoop(sys: LoopSystem, start: readonly number[], target: readonly number[], rest: readonly number[]): Continuation {
  const at = (s: number, from: readonly number[]) => from.map((v, i) => (rest.includes(i) ? v : start[i] + s * (target[i] - start[i])));
  let q = [...start],
    s = 0,
    step = 1 / 16;
  while (s < 1) {
    const next = Math.min(1, s + step);
    const closed = assemble(sys, at(next, q), rest);
    // a step that moves a rest coordinate by more than MAX_REST_STEP has left the branch (a short step would not)
    if (closed && rest.every((i) => Math.abs(closed[i] - q[i]) <= MAX_REST_STEP)) {
      q = closed;
      s = next;
      step = Math.min(1 / 16, 2 * step);
    } else if (step > 1 / 4096) {
      step /= 2;
    } else {
      return { closed: false, reached: s, rank: columnRank(sys, q, rest) };
    }
  }
  return { closed: true, q };
}

/**
 * The least-squares step of smallest norm, J^+ b, by the SVD with singular
 * values below 1e-10 of the largest dropped: rest coordinates whose columns
 * are dependent (two coaxial revolutes) still close a loop whose residual
 * lies in their range, as Newton's method in Kron does, where the normal
 * equations would be singular. Undefined when J is zero.
 */
function solveSquare(J: number[][], b: number[]): number[] | undefined {
  const n = J[0]?.length ?? 0;
  const { sigma, U, V } = svdColumns(J, n);
  if (!(sigma[0] > 0)) return undefined;
  const x = new Array<number>(n).fill(0);
  sigma.forEach((s, k) => {
    if (s <= 1e-10 * sigma[0]) return;
    const c = dotn(U[k], b) / s;
    V[k].forEach((v, i) => (x[i] += c * v));
  });
  return x;
}
