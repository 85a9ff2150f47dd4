// The oracles checked on problems with known answers before they judge the compiler.
import { describe, expect, it } from 'vitest';
import { matVec, solveDense } from './gauss.ts';
import { nodalAnalysis } from './nodal.ts';
import { symmetricEigen, solveSymmetricPsd, mulMatVec } from './symmetric.ts';
import { type OracleBody, type OracleTree, SPHERICAL_AXES, expand, forwardDynamics } from './joint-tree.ts';
import { dot2, svdColumns } from './accurate.ts';
import { type M3, type V3, add, cross, dot, mulMM, mulMV, rotation, scale } from './rnea.ts';
import { bondGraphEq6, driveTrainAcceleration, driveTrainEq3 } from './closed-forms.ts';

describe('solveDense', () => {
  it('needs pivoting and solves exactly', () => {
    expect(
      solveDense(
        [
          [0, 1],
          [1, 0],
        ],
        [2, 3],
      ),
    ).toEqual([3, 2]);
  });

  it('solves seeded random 8x8 systems to a small residual', () => {
    let s = 7;
    const rand = () => ((s = (s * 16807) % 2147483647) / 2147483647) * 2 - 1;
    for (let trial = 0; trial < 5; trial++) {
      const A = Array.from({ length: 8 }, () => Array.from({ length: 8 }, rand));
      const x = Array.from({ length: 8 }, rand);
      const y = solveDense(A, matVec(A, x));
      y.forEach((yi, k) => expect(yi).toBeCloseTo(x[k], 10));
    }
  });

  it('rejects a singular matrix', () => {
    expect(() =>
      solveDense(
        [
          [1, 2],
          [2, 4],
        ],
        [1, 1],
      ),
    ).toThrow(/singular/);
  });
});

describe('nodalAnalysis', () => {
  it('solves a voltage divider', () => {
    const s = nodalAnalysis(
      [
        { name: 'Ra', p: 'in', n: 'mid', R: 1 },
        { name: 'Rb', p: 'mid', n: 'gnd', R: 3 },
      ],
      { in: 8, gnd: 0 },
    );
    expect(s.v.get('mid')).toBeCloseTo(6, 14);
    expect(s.i.get('Ra')).toBeCloseTo(2, 14);
  });
});

describe('closed forms', () => {
  it('eq. 5 agrees with the 4x4 system of eq. 3', () => {
    const [, alpha2] = driveTrainEq3(1.5, 2, 3, 0.7);
    expect(alpha2).toBeCloseTo(driveTrainAcceleration(1.5, 2, 3, 0.7), 14);
  });

  it('eq. 6 satisfies eq. 4 with f2 = f1 - f3 and f4 = f3 - f5', () => {
    const p = { E: 10, R1: 1, R2: 2, R3: 3, R4: 4, R5: 5, C: 0.5 };
    const { e, f1, f3, f5 } = bondGraphEq6(p, 1);
    expect(e[1]).toBeCloseTo(p.R2 * (f1 - f3), 12);
    expect(p.E - e[0] - e[1]).toBeCloseTo(0, 12);
    expect(e[1] - e[2] - e[3]).toBeCloseTo(0, 12);
    expect(e[3] - e[4] - 1).toBeCloseTo(0, 12);
    expect(e[3]).toBeCloseTo(p.R4 * (f3 - f5), 12);
  });
});

// ---- the multibody oracles of issue 13: every joint type, loops by KKT ---------------------------

describe('symmetricEigen and solveSymmetricPsd', () => {
  it('decomposes a seeded random symmetric matrix: A v = lambda v, V orthonormal', () => {
    let s = 11;
    const rand = () => ((s = (s * 16807) % 2147483647) / 2147483647) * 2 - 1;
    const B = Array.from({ length: 7 }, () => Array.from({ length: 7 }, rand));
    const A = B.map((r, i) => r.map((_, j) => B[i][j] + B[j][i]));
    const { values, vectors } = symmetricEigen(A);
    values.forEach((l, k) => {
      const Av = mulMatVec(A, vectors[k]);
      Av.forEach((x, i) => expect(x).toBeCloseTo(l * vectors[k][i], 12));
      vectors.forEach((u, j) => expect(u.reduce((acc, x, i) => acc + x * vectors[k][i], 0)).toBeCloseTo(j === k ? 1 : 0, 13));
    });
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });

  it('calls a rank-deficient matrix singular, and a mass ratio of 1e12 regular', () => {
    expect(
      solveSymmetricPsd(
        [
          [1, 1],
          [1, 1],
        ],
        [1, 1],
      ).singular,
    ).toBe(true);
    expect(
      solveSymmetricPsd(
        [
          [1, 0],
          [0, 0],
        ],
        [1, 0],
      ).singular,
    ).toBe(true);
    const r = solveSymmetricPsd(
      [
        [1e12, 1e5],
        [1e5, 1],
      ],
      [1e12, 1],
    );
    expect(r.singular).toBe(false);
    if (!r.singular) {
      const back = mulMatVec(
        [
          [1e12, 1e5],
          [1e5, 1],
        ],
        r.x,
      );
      expect(back[0] / 1e12).toBeCloseTo(1, 12);
      expect(back[1]).toBeCloseTo(1, 8);
    }
  });
});

const G0 = 9.80665;
const none = { c: 0, q0: 0, d: 0 };
const I3: M3 = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

describe('joint-tree oracle (joint-tree.ts)', () => {
  it('a pendulum: qdd = (tau - m g L cos q) / (I + m L^2)', () => {
    const [m, L, Izz, tau] = [1.3, 0.7, 0.05, 0.4];
    const tree: OracleTree = {
      gravity: [0, -G0, 0],
      links: [{ parent: -1, E: I3, o: [0, 0, 0], joint: 'revolute', axes: [[0, 0, 1]], body: { m, c: [L, 0, 0], I: [0.01, 0.02, Izz, 0, 0, 0] }, law: none }],
    };
    for (const q of [0, 0.5, 2]) {
      const r = forwardDynamics(expand(tree), [q], [1.5], [tau]);
      expect(r.singular).toBe(false);
      if (!r.singular) expect(r.x[0]).toBeCloseTo((tau - m * G0 * L * Math.cos(q)) / (Izz + m * L * L), 12);
    }
  });

  it("a spherical pendulum (point mass plus inertia on a ball joint) follows Euler's equations about the fixed point", () => {
    const m = 2,
      c: V3 = [0.1, -0.6, 0.2];
    const Ic: OracleBody['I'] = [0.05, 0.03, 0.04, 0.004, -0.002, 0.001];
    const tree: OracleTree = {
      gravity: [0, -G0, 0],
      links: [{ parent: -1, E: I3, o: [0, 0, 0], joint: 'spherical', axes: SPHERICAL_AXES, body: { m, c, I: Ic }, law: none }],
    };
    const q = [0.3, -0.5, 1.1],
      qd = [0.7, -1.2, 0.4],
      tau = [0.2, -0.1, 0.3];
    const r = forwardDynamics(expand(tree), q, qd, tau);
    expect(r.singular).toBe(false);
    if (!r.singular) {
      const expected = eulerSpherical(m, c, Ic, q, qd, tau);
      r.x.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 11));
    }
  });

  it('a point mass at the centre of a ball joint, or a revolute with nothing after it, is singular', () => {
    const ball: OracleTree = {
      gravity: [0, -G0, 0],
      links: [{ parent: -1, E: I3, o: [0, 0, 0], joint: 'spherical', axes: SPHERICAL_AXES, body: { m: 1, c: [0, 0, 0], I: [0, 0, 0, 0, 0, 0] }, law: none }],
    };
    expect(forwardDynamics(expand(ball), [0.1, 0.2, 0.3], [0, 0, 0], [0, 0, 0]).singular).toBe(true);
    const offset: OracleTree = { ...ball, links: [{ ...ball.links[0], body: { m: 1, c: [0.3, 0.1, 0], I: [0, 0, 0, 0, 0, 0] } }] };
    expect(forwardDynamics(expand(offset), [0.1, 0.2, 0.3], [0, 0, 0], [0, 0, 0]).singular).toBe(true);
    const bare: OracleTree = { gravity: [0, -G0, 0], links: [{ parent: -1, E: I3, o: [0, 0, 0], joint: 'revolute', axes: [[0, 0, 1]], law: none }] };
    expect(forwardDynamics(expand(bare), [0.1], [0], [0]).singular).toBe(true);
  });

  it('a chain with one link of 1e12 kg is regular', () => {
    const link = (parent: number, m: number): OracleTree['links'][number] => ({
      parent,
      E: I3,
      o: parent < 0 ? [0, 0, 0] : [0.5, 0, 0],
      joint: 'revolute',
      axes: [[0, 0, 1]],
      body: { m, c: [0.25, 0, 0], I: [0.01 * m, 0.02 * m, 0.02 * m, 0, 0, 0] },
      law: none,
    });
    const tree: OracleTree = { gravity: [0, -G0, 0], links: [link(-1, 1), link(0, 1e12), link(1, 1)] };
    const r = forwardDynamics(expand(tree), [0.1, 0.2, 0.3], [0, 0, 0], [0, 0, 0]);
    expect(r.singular).toBe(false);
  });
});

describe('accurate.ts: one-sided Jacobi SVD and the compensated dot product', () => {
  it('finds the null space of a matrix whose columns differ in scale by 1e12 to working precision', () => {
    // B well conditioned, columns scaled by 1, 1e-6, 1e-6, 1, 1e-6 (sqrt of masses 1 and 1e12): A = B D
    const B = [
      [1, 0.3, -0.2, 0.5, 0.1],
      [0.2, -1, 0.4, 0.3, -0.6],
      [0.1, 0.2, 0.9, -0.7, 0.3],
    ];
    const D = [1, 1e-6, 1e-6, 1, 1e-6];
    const A = B.map((row) => row.map((x, j) => x * D[j]));
    const { sigma, V } = svdColumns(A);
    expect(sigma).toEqual([...sigma].sort((a, b) => b - a));
    // the two null vectors: A z = 0 to rounding relative to each column's size (z_j |A_j|)
    for (const z of V.slice(3)) {
      const Az = A.map((row) => row.reduce((acc, a, j) => acc + a * z[j], 0));
      const size = A.map((row) => row.reduce((acc, a, j) => acc + Math.abs(a * z[j]), 0));
      Az.forEach((v, i) => expect(Math.abs(v)).toBeLessThan(1e-14 * size[i] + 1e-300));
    }
  });

  it('dot2 sums 1e16 + 1 - 1e16 to 1, which plain summation loses', () => {
    expect(dot2([1e16, 1, -1e16], [1, 1, 1])).toBe(1);
    expect([1e16, 1, -1e16].reduce((a, b) => a + b, 0)).not.toBe(1);
  });
});

/**
 * Euler's equations of a rigid body about a fixed point, in world coordinates:
 * I_O w' = T + c x m g - w x I_O w, with I_O = R (I_c + m (|c|^2 1 - c c^T)) R^T;
 * the Cardan rates: w = sum e_i qd_i (e_1 = x, e_2 = Rx(q1) y, e_3 = Rx(q1) Ry(q2) z),
 * so w' = E qdd + sum e_i' qd_i; the joint torques tau_i = e_i . T.
 */
function eulerSpherical(m: number, c: V3, Ic: OracleBody['I'], q: number[], qd: number[], tau: number[]): number[] {
  const rx = rotation([1, 0, 0], q[0]),
    ry = rotation([0, 1, 0], q[1]),
    rz = rotation([0, 0, 1], q[2]);
  const R = mulMM(mulMM(rx, ry), rz);
  const e: V3[] = [[1, 0, 0], mulMV(rx, [0, 1, 0]), mulMV(mulMM(rx, ry), [0, 0, 1])];
  const w = e.reduce((acc, ei, i) => add(acc, scale(qd[i], ei)), [0, 0, 0] as V3);
  const [xx, yy, zz, xy, xz, yz] = Ic;
  const cc = dot(c, c);
  const IO: M3 = [
    [xx + m * (cc - c[0] * c[0]), xy - m * c[0] * c[1], xz - m * c[0] * c[2]],
    [xy - m * c[1] * c[0], yy + m * (cc - c[1] * c[1]), yz - m * c[1] * c[2]],
    [xz - m * c[2] * c[0], yz - m * c[2] * c[1], zz + m * (cc - c[2] * c[2])],
  ];
  const Rt: M3 = [
    [R[0][0], R[1][0], R[2][0]],
    [R[0][1], R[1][1], R[2][1]],
    [R[0][2], R[1][2], R[2][2]],
  ];
  const Iw = mulMM(mulMM(R, IO), Rt);
  const E: number[][] = [0, 1, 2].map((i) => e.map((ej) => ej[i]));
  // T from tau_i = e_i . T: E^T T = tau
  const T = solveDense(
    E.map((_, i) => e[i] as number[]),
    tau,
  ) as V3;
  const gravityMoment = cross(mulMV(R, c), [0, -m * G0, 0]);
  const wdot = solveDense(Iw as number[][], add(add(T, gravityMoment), scale(-1, cross(w, mulMV(Iw, w)))));
  const edot: V3[] = [[0, 0, 0], cross(scale(qd[0], e[0]), e[1]), cross(add(scale(qd[0], e[0]), scale(qd[1], e[1])), e[2])];
  const bias = edot.reduce((acc, ed, i) => add(acc, scale(qd[i], ed)), [0, 0, 0] as V3);
  return solveDense(
    E,
    [0, 1, 2].map((i) => wdot[i] - bias[i]),
  );
}
