// The run-time drivers of torn loops (codegen/runtime/newton.ts,
// runtime/columns.ts), called directly as TypeScript functions with
// hand-written pieces: Newton on small systems with closed-form roots (a
// circle and a line, a two-link arm's inverse kinematics), Levenberg-Marquardt reached from a singular Jacobian,
// the failures reported through fail with their kind and arguments (no root,
// a dead point, a branch jump), successive substitution against the root it
// must reach and its statistics, and H formed by columns against the matrix
// the pieces were written from, solved as a plain Gaussian elimination does.
import { describe, expect, it } from 'vitest';
import { choleskySolve, columnsBlock, columnsForm, doubles, newtonBlock, newtonSolve, signWatch, type Workspace } from '../../src/codegen/runtime.ts';
import { prng } from '../multibody/random-tree.ts';

type Pieces = { residual: (z: readonly number[], r: Workspace) => void; jacobian: (z: readonly number[], J: Workspace) => void };

/** what fail throws, as the module's reporter does (compiled.ts): the driver stops there */
class Failed extends Error {}

/** a block of k tearing variables in w[0..k), the stats in w[k + 1..k + 5), a closure's branch record in w[k + 5..k + 11); the fail calls recorded */
function block(k: number, pieces: Pieces, o: { closure?: boolean; maxSweeps?: number } = {}) {
  const w = doubles(k + 11),
    r = doubles(k),
    J = doubles(k * k);
  const calls: unknown[][] = [],
    jacobianAt: number[][] = [];
  const z = () => Array.from({ length: k }, (_, i) => w[i]);
  const b = newtonBlock(
    k,
    7,
    Int32Array.from({ length: k }, (_, i) => i),
    r,
    J,
    () => pieces.residual(z(), r),
    () => (jacobianAt.push(z()), pieces.jacobian(z(), J)),
    (...a: unknown[]) => {
      calls.push(a);
      throw new Failed();
    },
    o.closure ? Int32Array.from({ length: 6 }, (_, i) => k + 5 + i) : Int32Array.of(),
    o.maxSweeps ?? 0,
    o.maxSweeps ? Int32Array.of(k + 1, k + 2, k + 3, k + 4) : Int32Array.of(),
    // successive substitution's step, as substitution.ts emits it
    () => {
      for (let i = 0; i < k; i++) {
        const d = J[i * k + i];
        if (!(Math.abs(d) > 0)) return false;
        w[i] -= r[i] / d;
      }
      return true;
    },
  );
  const solve = (t: number, start?: readonly number[]) => {
    start?.forEach((v, i) => (w[i] = v));
    try {
      newtonSolve(b, t, [], [], [], w);
    } catch (e) {
      if (!(e instanceof Failed)) throw e;
    }
    return z();
  };
  return { w, calls, jacobianAt, solve };
}

// x^2 + y^2 = 4 and y = 1: (±sqrt(3), 1)
const circleLine: Pieces = {
  residual: ([x, y], r) => ((r[0] = x * x + y * y - 4), (r[1] = y - 1)),
  jacobian: ([x, y], J) => ((J[0] = 2 * x), (J[1] = 2 * y), (J[2] = 0), (J[3] = 1)),
};

/** a planar two-link arm (lengths a, c) reaching the point of the angles q: its end at q minus that point */
function arm(a: number, c: number, q: readonly [number, number]): Pieces {
  const px = a * Math.cos(q[0]) + c * Math.cos(q[0] + q[1]),
    py = a * Math.sin(q[0]) + c * Math.sin(q[0] + q[1]);
  return {
    residual: ([q1, q2], r) => ((r[0] = a * Math.cos(q1) + c * Math.cos(q1 + q2) - px), (r[1] = a * Math.sin(q1) + c * Math.sin(q1 + q2) - py)),
    jacobian: ([q1, q2], J) => {
      J[0] = -a * Math.sin(q1) - c * Math.sin(q1 + q2);
      J[1] = -c * Math.sin(q1 + q2);
      J[2] = a * Math.cos(q1) + c * Math.cos(q1 + q2);
      J[3] = c * Math.cos(q1 + q2);
    },
  };
}

describe('newtonSolve', () => {
  // Newton stops at a largest residual of 1e-12: the roots below are that close, on these unit scales
  it('the circle and the line: the root on the side of the guess', () => {
    const { solve, calls } = block(2, circleLine);
    const [x, y] = solve(0, [1.5, 0.8]);
    expect(Math.abs(x - Math.sqrt(3))).toBeLessThan(1e-12);
    expect(y).toBe(1);
    const [x2] = solve(0, [-0.5, 3]);
    expect(Math.abs(x2 + Math.sqrt(3))).toBeLessThan(1e-12);
    expect(calls).toEqual([]);
  });

  it('the two-link arm: the known angles from a guess on their elbow branch; as a closure, the solved time kept', () => {
    const q: [number, number] = [0.4, 0.9];
    const { solve, calls, w } = block(2, arm(1, 0.8, q), { closure: true });
    const [q1, q2] = solve(0.25, [0.2, 1.2]);
    expect(Math.abs(q1 - q[0])).toBeLessThan(1e-12);
    expect(Math.abs(q2 - q[1])).toBeLessThan(1e-12);
    expect(w[7]).toBe(0.25); // the record: solved at 0.25
    expect(calls).toEqual([]);
    // the other branch (elbow the other way) from a guess on it
    const [m1, m2] = block(2, arm(1, 0.8, q)).solve(0, [1.2, -0.8]);
    const px = Math.cos(m1) + 0.8 * Math.cos(m1 + m2),
      py = Math.sin(m1) + 0.8 * Math.sin(m1 + m2);
    expect(m2).toBeLessThan(0);
    expect(Math.abs(px - (Math.cos(0.4) + 0.8 * Math.cos(1.3)))).toBeLessThan(1e-12);
    expect(Math.abs(py - (Math.sin(0.4) + 0.8 * Math.sin(1.3)))).toBeLessThan(1e-12);
  });

  it('a singular Jacobian at the guess: damped Newton and full steps stop there, Levenberg-Marquardt reaches the root', () => {
    // x^2 + y^2 = 1 and x = y, from (0.5, -0.5) where J = [1 -1; 1 -1] (and the gradient J^T r is not 0)
    const { solve, calls, jacobianAt } = block(2, {
      residual: ([x, y], r) => ((r[0] = x * x + y * y - 1), (r[1] = x - y)),
      jacobian: ([x, y], J) => ((J[0] = 2 * x), (J[1] = 2 * y), (J[2] = 1), (J[3] = -1)),
    });
    const [x, y] = solve(0, [0.5, -0.5]);
    expect(calls).toEqual([]);
    expect(Math.abs(Math.abs(x) - Math.SQRT1_2)).toBeLessThan(1e-12);
    expect(Math.abs(y - x)).toBeLessThan(1e-12);
    // one Jacobian at the guess per phase (damped, full steps, Levenberg-Marquardt), then steps away from it
    expect(jacobianAt.slice(0, 3)).toEqual([
      [0.5, -0.5],
      [0.5, -0.5],
      [0.5, -0.5],
    ]);
    expect(jacobianAt[3]).not.toEqual([0.5, -0.5]);
  });

  it('no root (z^2 + 1 = 0): fail("newton", block, t, smallest residual), no rcond for a loop that is not a closure', () => {
    const { solve, calls } = block(1, { residual: ([z], r) => (r[0] = z * z + 1), jacobian: ([z], J) => (J[0] = 2 * z) });
    solve(3, [0.5]);
    expect(calls).toHaveLength(1);
    const [kind, blockNo, t, best, ...rest] = calls[0];
    expect([kind, blockNo, t, rest]).toEqual(['newton', 7, 3, []]);
    expect(best).toBeGreaterThanOrEqual(1); // the residual is at least 1 everywhere
    expect(best).toBeLessThan(1.3);
  });

  it('a closure that does not close: the rcond of its Jacobian at the entry guess too', () => {
    // the arm's end 2 from its base, beyond its reach of 1.8: no root
    const far: Pieces = {
      ...arm(1, 0.8, [0, 0]),
      residual: ([q1, q2], r) => ((r[0] = Math.cos(q1) + 0.8 * Math.cos(q1 + q2) - 2), (r[1] = Math.sin(q1) + 0.8 * Math.sin(q1 + q2))),
    };
    const { solve, calls } = block(2, far, { closure: true });
    solve(1, [0.3, 0.5]);
    const [kind, blockNo, t, best, rcond] = calls[0] as [string, number, number, number, number];
    expect([kind, blockNo, t]).toEqual(['newton', 7, 1]);
    expect(best).toBeGreaterThanOrEqual(0.2 - 1e-12); // the end gets no nearer than 2 - 1.8
    // unscaled rcond at (0.3, 0.5): smallest LU pivot over the largest entry, by hand
    const J = [-Math.sin(0.3) - 0.8 * Math.sin(0.8), -0.8 * Math.sin(0.8), Math.cos(0.3) + 0.8 * Math.cos(0.8), 0.8 * Math.cos(0.8)];
    const det = Math.abs(J[0] * J[3] - J[1] * J[2]),
      p1 = Math.max(Math.abs(J[0]), Math.abs(J[2]));
    expect(rcond).toBeCloseTo(Math.min(p1, det / p1) / Math.max(...J.map(Math.abs)), 14);
  });

  it('a closure solved at a dead point (the arm nearly stretched): fail("deadpoint", block, t, rcond)', () => {
    const { solve, calls } = block(2, arm(1, 0.8, [0.3, 1e-7]), { closure: true });
    solve(0, [0.3, 1e-3]);
    const [kind, blockNo, t, rcond] = calls[0] as [string, number, number, number];
    expect([kind, blockNo, t]).toEqual(['deadpoint', 7, 0]);
    expect(rcond).toBeLessThan(1e-5);
  });

  it('a closure that lands far from its first step: fail("branch", block, t, off), only once time has advanced', () => {
    // z^3 - z = c: from z = -1.1 (c = -0.231) to c = 0.5, the first step predicts -1.1 + 0.28 = -0.82,
    // and Newton lands on the one real root, 1.19
    let c = -0.231;
    const cubic: Pieces = { residual: ([z], r) => (r[0] = z * z * z - z - c), jacobian: ([z], J) => (J[0] = 3 * z * z - 1) };
    const { solve, calls } = block(1, cubic, { closure: true });
    solve(0, [-1.1]);
    expect(calls).toEqual([]);
    c = 0.5;
    const [z] = solve(0.001);
    expect(Math.abs(z ** 3 - z - 0.5)).toBeLessThan(1e-12);
    const [kind, blockNo, t, off] = calls[0] as [string, number, number, number];
    expect([kind, blockNo, t]).toEqual(['branch', 7, 0.001]);
    expect(off).toBeGreaterThan(1);
  });
  it('a closure whose determinant changes sign between two solves: fail("changepoint", block, t, rcond, last time), not at the start time', () => {
    // z (z - s) = 0 has the roots 0 and s, which cross at s = 0; on the root z = s, J = 2z - s = s
    let s = 0.3;
    const crossing: Pieces = { residual: ([z], r) => (r[0] = z * (z - s)), jacobian: ([z], J) => (J[0] = 2 * z - s) };
    const { solve, calls } = block(1, crossing, { closure: true });
    solve(0, [0.28]);
    s = -0.3;
    const [z] = solve(0, [-0.25]); // several states at the time the record started: not compared
    expect(Math.abs(z + 0.3)).toBeLessThan(1e-11); // a residual of 1e-12 over J = 0.3
    expect(calls).toEqual([]);
    s = 0.3;
    solve(0.001, [0.28]);
    expect(calls).toEqual([['changepoint', 7, 0.001, 1, 0]]);
  });

  it('a closure whose determinant, extrapolated in time, crosses zero while its own does not: fail("turnback", block, t, rcond, last time)', () => {
    // z1^2 = s^2 and z2 = 1: J = diag(2 z1, 1), det J over its largest entry^2 is 2 z1 (|z1| < 0.5).
    // Followed on z1 = |s| as s falls through 0, det goes 0.4, 0.2 and back up to 0.3: a turn at a fold
    let s = 0.2;
    const fold: Pieces = {
      residual: ([z1, z2], r) => ((r[0] = z1 * z1 - s * s), (r[1] = z2 - 1)),
      jacobian: ([z1], J) => ((J[0] = 2 * z1), (J[1] = 0), (J[2] = 0), (J[3] = 1)),
    };
    const { solve, calls } = block(2, fold, { closure: true });
    solve(0, [0.19, 1]);
    s = 0.1;
    solve(0.1);
    expect(calls).toEqual([]);
    s = -0.15;
    const [z1] = solve(0.25);
    expect(Math.abs(z1 - 0.15)).toBeLessThan(1e-11);
    const [kind, blockNo, t, rcond, since] = calls[0] as [string, number, number, number, number];
    expect([kind, blockNo, t, since]).toEqual(['turnback', 7, 0.25, 0.1]);
    expect(rcond).toBeCloseTo(0.3, 10); // J = diag(0.3, 1) at the root
    // the same fall that stays clear of zero (det 0.4, 0.2, 0.12 on a line that reaches 0 at t = 0.2): no failure
    const clear = block(2, fold, { closure: true });
    s = 0.2;
    clear.solve(0, [0.19, 1]);
    s = 0.1;
    clear.solve(0.1);
    s = 0.06;
    clear.solve(0.14);
    expect(clear.calls).toEqual([]);
  });
});

describe('signWatch: a value that must keep its sign along a run', () => {
  /** the verdicts of a sequence of (t, value) on a fresh record */
  const verdicts = (seq: [number, number][]) => {
    const w = doubles(6),
      R = Int32Array.from({ length: 6 }, (_, i) => i);
    return seq.map(([t, v]) => signWatch(w, R, t, v));
  };

  it('a smooth dip that stays clear of zero passes; a sign change is 1, a trend through zero 2', () => {
    expect(
      verdicts([
        [0, 0.4],
        [0.1, 0.3],
        [0.2, 0.35],
        [0.3, 0.5],
      ]),
    ).toEqual([0, 0, 0, 0]);
    expect(
      verdicts([
        [0, 0.4],
        [0.1, 0.3],
        [0.2, -0.1],
      ]),
    ).toEqual([0, 0, 1]);
    expect(
      verdicts([
        [0, 0.4],
        [0.1, 0.1],
        [0.2, 0.2],
      ]),
    ).toEqual([0, 0, 2]); // 0.1 - 0.3 would be -0.2 by now
  });

  it('a fold: the stages at one time scatter about the turn (0.05 and 0.3), the trend does not cross, the turn after a long approach is 2', () => {
    // approached by 0.35 in one span to a least value of 0.05, then back up: nearer to zero than the step resolves
    expect(
      verdicts([
        [0, 0.4],
        [0.1, 0.05],
        [0.1, 0.3],
        [0.2, 0.35],
      ]),
    ).toEqual([0, 0, 0, 2]);
    // the same values at one time repeated only, or a turn after an approach shorter than what is left: 0
    expect(
      verdicts([
        [0, 0.4],
        [0.1, 0.3],
        [0.1, 0.25],
        [0.2, 0.35],
      ]),
    ).toEqual([0, 0, 0, 0]);
  });

  it('a new start (time back before t0) forgets the record; several values at the start time are not compared', () => {
    expect(
      verdicts([
        [0, 0.4],
        [0, -0.4],
        [0.1, -0.3],
        [0.2, 0.2],
      ]),
    ).toEqual([0, 0, 0, 1]);
    expect(
      verdicts([
        [0, 0.4],
        [0.1, 0.3],
        [0.2, 0.25],
        [0, -0.3],
        [0.1, -0.35],
      ]),
    ).toEqual([0, 0, 0, 0, 0]);
  });
});

describe('successive substitution before Newton', () => {
  // x = a sin(y) + 0.2, y = a cos(x) + 1 (test/compile/substitution.test.ts)
  const coupled = (a: number): Pieces => ({
    residual: ([x, y], r) => ((r[0] = x - a * Math.sin(y) - 0.2), (r[1] = y - a * Math.cos(x) - 1)),
    jacobian: ([x, y], J) => ((J[0] = 1), (J[1] = -a * Math.cos(y)), (J[2] = a * Math.sin(x)), (J[3] = 1)),
  });
  const holds = (a: number, [x, y]: number[]) => Math.max(Math.abs(x - a * Math.sin(y) - 0.2), Math.abs(y - a * Math.cos(x) - 1));

  it('weak coupling (a = 0.3): the sweeps alone reach the root Newton reaches; one evaluation, its sweeps, no fallback', () => {
    const s = block(2, coupled(0.3), { maxSweeps: 50 }),
      n = block(2, coupled(0.3));
    const z = s.solve(0, [0, 0]),
      zn = n.solve(0, [0, 0]);
    expect(holds(0.3, z)).toBeLessThanOrEqual(1e-12);
    expect(Math.abs(z[0] - zn[0]) + Math.abs(z[1] - zn[1])).toBeLessThan(1e-11);
    const [evaluations, sweeps, max, fallbacks] = [3, 4, 5, 6].map((i) => s.w[i]);
    expect([evaluations, fallbacks]).toEqual([1, 0]);
    expect(sweeps).toBe(max);
    expect(sweeps).toBeGreaterThan(5); // a contraction of ~0.3 per sweep from 1 off
    expect(s.jacobianAt.length).toBe(sweeps); // the diagonal of one Jacobian per sweep, none at the converged one
  });

  it('strong coupling (a = 2): the sweeps diverge, Newton finishes from the entry guess and the fallback is counted', () => {
    const s = block(2, coupled(2), { maxSweeps: 30 });
    const z = s.solve(0, [1.5, 1.5]);
    expect(holds(2, z)).toBeLessThanOrEqual(1e-12);
    expect(s.w[3]).toBe(1);
    expect(s.w[6]).toBe(1);
    expect(s.calls).toEqual([]);
  });
});

describe('columnsForm', () => {
  it('H and c of a random SPD system from its residual and direction: exactly the matrix, then the solution of a plain Gaussian elimination', () => {
    const rnd = prng(18),
      k = 9;
    // H = B B^T + k I, SPD; the pieces: r(z) = H z - c, and along dz, d = H dz
    const B = Array.from({ length: k }, () => Array.from({ length: k }, () => rnd() * 2 - 1));
    const Hs = B.map((bi, i) => B.map((bj, j) => bi.reduce((s, v, m) => s + v * bj[m], 0) + (i === j ? k : 0)));
    const cs = Array.from({ length: k }, () => rnd() * 10 - 5);
    // z in odd slots, dz in even ones, read back only through them
    const w = doubles(2 * k),
      z = Int32Array.from({ length: k }, (_, i) => 2 * i + 1),
      dz = Int32Array.from({ length: k }, (_, i) => 2 * i);
    w.fill(NaN);
    const H = doubles(k * k),
      c = doubles(k),
      r = doubles(k),
      d = doubles(k);
    const row = (i: number, at: Int32Array) => Hs[i].reduce((s, h, j) => s + h * w[at[j]], 0);
    const b = columnsBlock(
      k,
      z,
      dz,
      H,
      c,
      r,
      d,
      () => Hs.forEach((_, i) => (r[i] = row(i, z) - cs[i])),
      () => Hs.forEach((_, i) => (d[i] = row(i, dz))),
    );
    columnsForm(b, 0, [], [], [], w);
    expect([...H]).toEqual(Hs.flat());
    expect([...c]).toEqual(cs);
    expect([...w]).toEqual(Array(2 * k).fill(0)); // z at 0, every direction back to 0
    expect(choleskySolve(k, H, c)).toBeGreaterThan(0);
    const x = gauss(Hs, cs);
    c.forEach((v, i) => expect(Math.abs(v - x[i])).toBeLessThan(1e-13 * (1 + Math.abs(x[i]))));
  });
});

/** Gaussian elimination with partial pivoting on copies of A and b */
function gauss(A: readonly number[][], b: readonly number[]): number[] {
  const n = b.length,
    M = A.map((row, i) => [...row, b[i]]);
  for (let p = 0; p < n; p++) {
    let m = p;
    for (let i = p + 1; i < n; i++) if (Math.abs(M[i][p]) > Math.abs(M[m][p])) m = i;
    [M[p], M[m]] = [M[m], M[p]];
    for (let i = p + 1; i < n; i++) {
      const l = M[i][p] / M[p][p];
      for (let j = p; j <= n; j++) M[i][j] -= l * M[p][j];
    }
  }
  const x = Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) x[i] = (M[i][n] - M[i].slice(i + 1, n).reduce((s, v, j) => s + v * x[i + 1 + j], 0)) / M[i][i];
  return x;
}
