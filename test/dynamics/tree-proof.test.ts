// The compile-time proof that the forces outside a tree are per-joint affine
// in (q, qd) (src/codegen/tree-proof.ts), and the calls it spares: with the
// proof and unchanged inputs and parameters, forwardDerivatives and
// inverseDerivatives run no model code (h from the tree's own pass), and
// must still equal fourth-order central differences of the compiled forward
// code (1e-7) and the generated tangents (1e-10). Seeded random trees with
// springs, dampers and position servos; a changed ctrl measures again; a
// clamped servo or a time-dependent force keeps the per-call check with its
// reason in `method`; a cubic spring is not affine at all (the tangents).
import { describe, expect, it, vi } from 'vitest';
import { compile } from '../../src/compile.ts';
import { DynamicsDerivatives } from '../../src/codegen/dynamics-derivatives.ts';
import { inverseTangents } from '../../src/codegen/inverse-tangents.ts';
import { mul, pow } from '../../src/expr/index.ts';
import type { Mechanism } from '../../src/library/multibody/index.ts';
import { time } from '../../src/model/index.ts';
import { randomTree } from '../multibody/random-tree.ts';
import { prng } from './cases.ts';
import { forwardDynamics, jacobian, relative } from './differences.ts';
import { servo, withServos } from './trees.ts';

/** the inverse run, its derivatives (analytical where they apply) and the tangents' */
function paths(mech: () => Mechanism) {
  const inv = compile(mech(), { problem: 'inverse' });
  const run = inv.inverseDynamics();
  const code = inverseTangents(inv);
  if (typeof code === 'string') throw new Error(code);
  return { inv, run, analytical: new DynamicsDerivatives(run, code), tangents: new DynamicsDerivatives(run, code, false) };
}

const KEYS = ['qdd', 'dqdd_dq', 'dqdd_dqd', 'dqdd_dtau'] as const;

describe('forces outside the tree proven affine at compile time', () => {
  for (let k = 0; k < 6; k++) {
    const seed = 3310 + k,
      nb = 3 + ((5 * k) % 9);
    it(`random tree seed ${seed}, ${nb} bodies, servos: no model code per call, the differences and the tangents agree`, () => {
      const build = () => withServos(seed, nb);
      const { inv, run, analytical, tangents } = paths(build);
      expect(analytical.method).toBe('analytical');
      const n = analytical.n,
        rand = prng(seed),
        point = () => Float64Array.from({ length: n }, () => 2 * rand() - 1);
      const fd = forwardDynamics(compile(build()), inv.coordinates);
      analytical.forward(point(), point(), point()); // measures the outside forces
      const spy = vi.spyOn(run, 'evaluate');
      for (let s = 0; s < 2; s++) {
        const [q, qd, tau] = [point(), point(), point()];
        const a = analytical.forward(q, qd, tau),
          c = analytical.inverse(q, qd, a.qdd);
        expect(spy).not.toHaveBeenCalled();
        expect(relative(a.qdd, fd(q, qd, tau))).toBeLessThan(1e-10);
        const byQ = jacobian((x) => fd(x, qd, tau), q),
          byQd = jacobian((x) => fd(q, x, tau), qd),
          byTau = jacobian((x) => fd(q, qd, x), tau);
        expect(relative(a.dqdd_dq, byQ)).toBeLessThan(1e-7);
        expect(relative(a.dqdd_dqd, byQd)).toBeLessThan(1e-7);
        expect(relative(a.dqdd_dtau, byTau)).toBeLessThan(1e-7);
        expect(relative(c.tau, tau)).toBeLessThan(1e-10);
        const b = tangents.forward(q, qd, tau),
          d = tangents.inverse(q, qd, a.qdd);
        for (const key of KEYS) expect(relative(a[key], b[key]), key).toBeLessThan(1e-10);
        for (const key of ['tau', 'dtau_dq', 'dtau_dqd', 'dtau_dqdd'] as const) expect(relative(c[key], d[key]), key).toBeLessThan(1e-10);
        spy.mockClear();
      }
      spy.mockRestore();
    }, 120_000);
  }

  it('a changed ctrl: the model code runs, the forces are measured again, the results still agree', () => {
    const build = () => {
      const mech = randomTree(3320, 4).mechanism;
      servo(mech, 'j2', 12, 0.5);
      return mech;
    };
    const { run, analytical, tangents } = paths(build);
    const q = [0.1, -0.3, 0.2, 0.9],
      qd = [0.5, 0, -0.2, 0.1],
      tau = [1, -2, 0.5, 3];
    const before = analytical.forward(q, qd, tau).qdd;
    run.state.setInput('servo_j2.ctrl', 0.7);
    const spy = vi.spyOn(run, 'evaluate');
    const a = analytical.forward(q, qd, tau);
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
    expect(relative(a.qdd, before)).toBeGreaterThan(1e-3);
    const b = tangents.forward(q, qd, tau);
    for (const key of KEYS) expect(relative(a[key], b[key]), key).toBeLessThan(1e-10);
    expect(analytical.method).toBe('analytical');
  }, 120_000);

  it('a clamped servo and a force in time keep the per-call check, saying why; a cubic spring keeps the tangents', () => {
    const clamped = paths(() => {
      const mech = randomTree(3321, 3).mechanism;
      servo(mech, 'j1', 10, 1, { forceRange: [-1e3, 1e3] });
      return mech;
    });
    expect(clamped.analytical.method).toMatch(/^analytical, checked per call: the force .* on j1 is not affine in its q and qd$/);
    const timed = paths(() => {
      const mech = randomTree(3322, 3).mechanism;
      (mech.children.find((c) => c.localName === 'j2') as ReturnType<typeof servo>).applyForce(mul(0.3, time));
      return mech;
    });
    expect(timed.analytical.method).toMatch(/^analytical, checked per call: the force .* on j2 depends on time$/);
    for (const { analytical, tangents } of [clamped, timed]) {
      const a = analytical.forward([0.2, -0.1, 0.4], [0.3, 0.1, -0.5], [1, 0, -1]),
        b = tangents.forward([0.2, -0.1, 0.4], [0.3, 0.1, -0.5], [1, 0, -1]);
      for (const key of KEYS) expect(relative(a[key], b[key]), key).toBeLessThan(1e-10);
    }
    const cubic = paths(() => {
      const mech = randomTree(3323, 3).mechanism,
        j = mech.children.find((c) => c.localName === 'j1') as ReturnType<typeof servo>;
      j.applyForce(mul(-40, pow(j.q, 3)));
      return mech;
    });
    expect(cubic.analytical.method).toMatch(/^tangents: a force outside the tree is not affine/);
  }, 120_000);
});
