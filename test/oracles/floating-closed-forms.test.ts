// The quaternion helpers and the torque-free body's closed form
// (torque-free.ts), checked before they judge Kron's free and ball joints
// (floating.test.ts checks the floating-base oracle itself):
//   - quaternions against rotation matrices; elliptic functions against
//     their identities
//   - the torque-free body against Landau-Lifshitz's closed form (Dzhanibekov
//     flip), and the oracle's RK4 against it
import { describe, expect, it } from 'vitest';
import { type V3, add, cross, identity, mulMM, rotation, scale } from './rnea.ts';
import { directional } from './ridders.ts';
import { centreOfMass, floatingModel, forwardDynamics, integrateQuaternion, kineticEnergy, momentum, rk4Step } from './floating.ts';
import { type Quat, quatAngle, quatFromAxisAngle, quatFromMatrix, quatMatrix, quatMul, quatNorm, quatRate } from './quaternion.ts';
import { prng, randomQuat, relDiff } from './floating-random.ts';
import { carlsonRF, ellipticF, ellipticK, jacobiElliptic, hermiteRoot, torqueFree } from './torque-free.ts';

const ZERO: V3 = [0, 0, 0];
const zeros = (n: number) => new Array<number>(n).fill(0);
const maxAbsDiff = (a: readonly number[], b: readonly number[]) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

describe('quaternions', () => {
  it("R(Q) of an axis-angle quaternion is Rodrigues' rotation, and Shepperd's method inverts it", () => {
    const rand = prng(1);
    for (let k = 0; k < 20; k++) {
      const n: V3 = [rand() - 0.5, rand() - 0.5, rand() - 0.5],
        phi = 6 * rand() - 3;
      const len = Math.hypot(...n);
      const R = rotation(scale(1 / len, n), phi);
      const Q = quatFromAxisAngle(n, phi);
      expect(maxAbsDiff(quatMatrix(Q).flat(), R.flat())).toBeLessThan(1e-15);
      expect(quatAngle(quatFromMatrix(R), Q)).toBeLessThan(1e-14);
    }
  });

  it('R(a b) = R(a) R(b): the Hamilton product composes rotations', () => {
    const rand = prng(2);
    const a = randomQuat(rand),
      b = randomQuat(rand);
    expect(maxAbsDiff(quatMatrix(quatMul(a, b)).flat(), mulMM(quatMatrix(a), quatMatrix(b)).flat())).toBeLessThan(1e-15);
  });

  it('integrateQuaternion is exact for a constant body rate and der(Q) = 1/2 Q (0, w) is its derivative', () => {
    const Q0 = randomQuat(prng(3));
    const w: V3 = [0.3, -1.2, 2.1],
      t = 0.7,
      len = Math.hypot(...w);
    // constant w in the body: R(t) = R(0) Rot(w/|w|, |w| t)
    expect(quatAngle(integrateQuaternion(Q0, w, t), quatMul(Q0, quatFromAxisAngle(w, len * t)))).toBeLessThan(1e-15);
    const d = directional(([s]) => integrateQuaternion(Q0, w, s), [0], [1]);
    expect(maxAbsDiff(d.value, quatRate(Q0, w))).toBeLessThan(1e-10);
  });

  it('the exponential map keeps |Q| = 1 over 1e5 steps of a varying rate (drift below 1e-13)', () => {
    let Q: Quat = [1, 0, 0, 0];
    for (let k = 0; k < 100_000; k++) Q = integrateQuaternion(Q, [Math.sin(k * 1e-3), 2, Math.cos(k * 7e-4)], 1e-3);
    expect(Math.abs(quatNorm(Q) - 1)).toBeLessThan(1e-13);
  });
});

describe('elliptic functions (torque-free.ts)', () => {
  it('K(m) by the AGM: K(0) = pi/2, K(1/2) = 1.854074677301372 (A&S table 17.1), = R_F(0, 1 - m, 1)', () => {
    expect(ellipticK(0)).toBe(Math.PI / 2);
    expect(ellipticK(0.5)).toBeCloseTo(1.854074677301372, 14);
    for (const m of [0.1, 0.7, 0.99, 1 - 1e-9]) expect(ellipticK(m) / carlsonRF(0, 1 - m, 1) - 1).toBeLessThan(1e-14);
  });

  it('sn, cn, dn: sn^2 + cn^2 = 1, dn^2 + m sn^2 = 1, d sn/du = cn dn, sn(K) = 1, and F inverts the amplitude', () => {
    for (const m of [0, 0.3, 0.9, 0.999999]) {
      const K = ellipticK(m);
      expect(jacobiElliptic(K, m).sn).toBeCloseTo(1, 12);
      for (const u of [-2.5, -0.4, 0.3, 1.1, 3.7]) {
        const { sn, cn, dn } = jacobiElliptic(u, m);
        expect(sn * sn + cn * cn).toBeCloseTo(1, 14);
        expect(dn * dn + m * sn * sn).toBeCloseTo(1, 14);
        const d = directional(([x]) => [jacobiElliptic(x, m).sn], [u], [1]);
        expect(d.value[0]).toBeCloseTo(cn * dn, 9);
        if (Math.abs(u) < 2 * K) expect(ellipticF(Math.atan2(sn, cn), m)).toBeCloseTo(u, 12);
      }
    }
  });
});

describe('the torque-free body in closed form', () => {
  const I: V3 = [1, 2, 3];
  for (const w0 of [
    [0.02, 2, 0.03],
    [0.3, -1.5, -0.01],
    [-0.05, 0.01, 1],
  ] as V3[]) {
    it(`Omega(t) from Omega(0) = ${w0.join(', ')} satisfies Euler's equations and keeps E and |M|`, () => {
      const cf = torqueFree(I, w0);
      expect(maxAbsDiff(cf.omega(0), w0)).toBeLessThan(1e-11);
      const E = (w: V3) => I[0] * w[0] ** 2 + I[1] * w[1] ** 2 + I[2] * w[2] ** 2;
      const M2 = (w: V3) => (I[0] * w[0]) ** 2 + (I[1] * w[1]) ** 2 + (I[2] * w[2]) ** 2;
      for (const t of [0.3, 2.9, 7.1, cf.period * 0.77]) {
        const w = cf.omega(t);
        const dw = directional(([s]) => cf.omega(s), [t], [1]).value;
        expect(I[0] * dw[0]).toBeCloseTo((I[1] - I[2]) * w[1] * w[2], 8);
        expect(I[1] * dw[1]).toBeCloseTo((I[2] - I[0]) * w[2] * w[0], 8);
        expect(I[2] * dw[2]).toBeCloseTo((I[0] - I[1]) * w[0] * w[1], 8);
        expect(E(w) / E(w0) - 1).toBeLessThan(1e-12);
        expect(M2(w) / M2(w0) - 1).toBeLessThan(1e-12);
      }
      expect(maxAbsDiff(cf.omega(cf.period), w0)).toBeLessThan(1e-9);
    });
  }
});

describe("the torque-free body (Dzhanibekov): the oracle's RK4 against the closed form", () => {
  it('spun near its intermediate axis it flips every T/2 of Landau-Lifshitz to 1e-9; Omega(t), L (world), E and |Q| kept', () => {
    const I: V3 = [1, 2, 3],
      w0: V3 = [0.2, 4, 0.3];
    // the centre of mass off the body origin and moving: the free joint's v is the origin's, the rotation must not see it
    const c: V3 = [0.1, -0.2, 0.05],
      u: V3 = [0.3, -0.1, 0.2];
    const model = floatingModel({ gravity: ZERO, links: [{ parent: -1, E: identity(), o: ZERO, joint: 'free', body: { m: 1.5, c, I: [...I, 0, 0, 0] } }] });
    const cf = torqueFree(I, w0);
    let q = [0, 0, 0, 1, 0, 0, 0],
      v = [...add(u, scale(-1, cross(w0, c))), ...w0];
    const L0 = momentum(model, q, v).angular,
      E0 = kineticEnergy(model, q, v),
      c0 = centreOfMass(model, q).r;
    const h = 1e-3,
      flips: number[] = [];
    let worstW = 0,
      worstL = 0,
      worstE = 0,
      worstQ = 0;
    for (let k = 1; k <= 10_000; k++) {
      const next = rk4Step(model, q, v, h);
      // a flip: Omega2 changes sign within the step; the root of the cubic Hermite interpolant of Omega2 and its rate
      if (Math.sign(next.v[4]) !== Math.sign(v[4]))
        flips.push(
          (k - 1) * h +
            h * hermiteRoot(v[4], next.v[4], h * forwardDynamics(model, q, v, zeros(6))[4], h * forwardDynamics(model, next.q, next.v, zeros(6))[4]),
        );
      ({ q, v } = next);
      const w = cf.omega(k * h);
      worstW = Math.max(worstW, maxAbsDiff(v.slice(3), w) / 4);
      worstL = Math.max(worstL, relDiff(momentum(model, q, v).angular, L0, 0));
      worstE = Math.max(worstE, Math.abs(kineticEnergy(model, q, v) / E0 - 1));
      worstQ = Math.max(worstQ, Math.abs(quatNorm(q.slice(3, 7) as Quat) - 1));
    }
    expect(flips.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < flips.length; i++) expect(Math.abs((flips[i] - flips[i - 1]) / (cf.period / 2) - 1)).toBeLessThan(1e-9);
    expect(worstW).toBeLessThan(1e-9);
    expect(worstL).toBeLessThan(1e-11);
    expect(worstE).toBeLessThan(1e-11);
    expect(worstQ).toBeLessThan(1e-15);
    expect(relDiff(centreOfMass(model, q).r, add(c0, scale(10, u)))).toBeLessThan(1e-11);
  });
});
