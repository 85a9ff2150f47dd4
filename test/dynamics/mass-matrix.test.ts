// M(q) and h(q, qd) of M qdd + h = tau from the compiled inverse dynamics
// (CompiledModel.massMatrix, bias), against independent oracles: the mass
// matrix from the kinetic energy (test/oracles/jacobian-mass.ts), the bias
// from the Newton-Euler oracle with qdd = 0, and forward dynamics (Kron's and
// the articulated-body oracle's) for M qdd + h = tau.
import { describe, expect, it } from 'vitest';
import chain, { parameters as chainParameters } from '../../mechanisms/chain.ts';
import fourbar from '../../mechanisms/fourbar.ts';
import sixbar from '../../mechanisms/sixbar.ts';
import puma560 from '../../mechanisms/puma560.ts';
import { compile } from '../../src/compile.ts';
import type { Mechanism } from '../../src/library/multibody/index.ts';
import { rnea } from '../oracles/rnea.ts';
import { aba, chainTree } from '../oracles/aba.ts';
import { massMatrixOracle } from '../oracles/jacobian-mass.ts';
import { type Case, cases, passiveForce, prng, pumaTree } from './cases.ts';

/** lower-triangular Cholesky factor; throws when A is not positive definite */
function cholesky(A: Float64Array, n: number): Float64Array {
  const L = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = A[j * n + j];
    for (let k = 0; k < j; k++) d -= L[j * n + k] ** 2;
    if (!(d > 0)) throw new Error(`not positive definite: pivot ${j} is ${d}`);
    L[j * n + j] = Math.sqrt(d);
    for (let i = j + 1; i < n; i++) {
      let s = A[i * n + j];
      for (let k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s / L[j * n + j];
    }
  }
  return L;
}

const maxAbs = (a: ArrayLike<number>) => Math.max(1e-300, ...Array.from(a, Math.abs));

describe('mass matrix and bias against the oracles (trees)', () => {
  const all: Case[] = [
    { name: 'chain n = 8', mechanism: () => chain({ n: 8 }), oracle: chainTree(8, chainParameters) },
    { name: 'PUMA 560', mechanism: () => puma560(), oracle: pumaTree(9.80665) },
    ...cases.slice(0, 10),
  ];
  for (const c of all) {
    it(`${c.name}: M = the kinetic-energy oracle's, symmetric positive definite; h = RNEA(q, qd, 0); M qdd + h = tau of forward dynamics and of ABA`, () => {
      const inv = compile(c.mechanism(), { problem: 'inverse' });
      const fwd = compile(c.mechanism(), { mode: 'relaxed' });
      const n = c.oracle.bodies.length;
      const rnd = prng(77 + n);
      for (let s = 0; s < 4; s++) {
        const q = Array.from({ length: n }, () => -Math.PI + 2 * Math.PI * rnd());
        const qd = Array.from({ length: n }, () => -2 + 4 * rnd());
        const M = inv.massMatrix(q);
        const want = massMatrixOracle(c.oracle, q);
        const scale = maxAbs(want.flat());
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) {
            expect(Math.abs(M[i * n + j] - want[i][j]) / scale, `M[${i}][${j}] at state ${s}`).toBeLessThanOrEqual(1e-10);
            expect(Math.abs(M[i * n + j] - M[j * n + i]) / scale, `symmetry (${i}, ${j})`).toBeLessThanOrEqual(1e-12);
          }
        }
        expect(() => cholesky(M, n)).not.toThrow();
        const h = inv.bias(q, qd);
        const hWant = rnea(
          c.oracle,
          q,
          qd,
          q.map(() => 0),
        ).map((v, i) => v + passiveForce(c.passive?.[i], q[i], qd[i]));
        const hScale = Math.max(1, maxAbs(hWant));
        h.forEach((v, i) => expect(Math.abs(v - hWant[i]) / hScale, `h[${i}]`).toBeLessThanOrEqual(1e-10));
        // forward dynamics with random drives: M qdd + h = tau
        const tau = Array.from({ length: n }, () => -5 + 10 * rnd());
        const x = fwd.x0();
        for (let i = 0; i < n; i++) {
          x[fwd.stateNames.indexOf(`j${i + 1}.q`)] = q[i];
          x[fwd.stateNames.indexOf(`j${i + 1}.qd`)] = qd[i];
          fwd.setInput(`j${i + 1}.tau`, tau[i]);
        }
        fwd.derivatives(0, x, new Float64Array(x.length));
        const qdd = tau.map((_, i) => fwd.signal(`der(j${i + 1}.qd)`));
        const total = tau.map((v, i) => v - passiveForce(c.passive?.[i], q[i], qd[i]));
        const fromAba = aba(c.oracle, q, qd, total).qdd;
        const tScale = Math.max(1, ...tau.map(Math.abs), maxAbs(h));
        for (let i = 0; i < n; i++) {
          let r = h[i] - tau[i];
          for (let j = 0; j < n; j++) r += M[i * n + j] * qdd[j];
          expect(Math.abs(r) / tScale, `(M qdd + h - tau)[${i}]`).toBeLessThanOrEqual(1e-9);
          expect(Math.abs(qdd[i] - fromAba[i]) / Math.max(1, maxAbs(fromAba)), `qdd[${i}] against ABA`).toBeLessThanOrEqual(1e-9);
        }
      }
    });
  }
});

describe('mass matrix and bias of kinematic loops (the reduced equations of the state joints)', () => {
  const loops: { name: string; build: () => Mechanism }[] = [
    { name: 'four-bar', build: () => fourbar() },
    { name: 'six-bar', build: () => sixbar() },
  ];
  for (const l of loops) {
    it(`${l.name}: M > 0 and M qdd + h = tau of forward dynamics along a path`, () => {
      const inv = compile(l.build(), { problem: 'inverse' });
      const fwd = compile(l.build());
      const k = inv.coordinates[0];
      const x = fwd.x0();
      const iq = fwd.stateNames.indexOf(k.q),
        iqd = fwd.stateNames.indexOf(k.qd);
      const q0 = x[iq];
      const rnd = prng(5);
      for (let s = 0; s < 6; s++) {
        const q = q0 + 0.05 * s,
          qd = -2 + 4 * rnd(),
          tau = -20 + 40 * rnd();
        const M = inv.massMatrix([q]);
        expect(M[0]).toBeGreaterThan(0);
        const h = inv.bias([q], [qd]);
        x[iq] = q;
        x[iqd] = qd;
        fwd.setInput(k.tau, tau);
        const dx = new Float64Array(x.length);
        fwd.derivatives(0, x, dx);
        expect(Math.abs(M[0] * dx[iqd] + h[0] - tau) / Math.max(1, Math.abs(tau), Math.abs(h[0])), `state ${s}`).toBeLessThanOrEqual(1e-9);
      }
    });
  }
});
