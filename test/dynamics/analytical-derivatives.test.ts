// The analytical recursions of a tree (src/codegen/tree-derivatives.ts,
// tree-dynamics.ts) against the generated tangents they replace
// (dynamics-derivatives.ts with `analytical: false`), an independent path:
// the tangents differentiate the compiled inverse code itself, the
// recursions use the tree's bodies in the world frame. dqdd/d(q, qd, tau),
// qdd, tau, dtau/d(q, qd) and M to 1e-10 of the largest entry, torn and
// relaxed, on the PUMA 560, the KUKA iiwa 14 (its MJCF position servos are
// forces outside the tree: measured from the model's code, and measured
// again when a servo's ctrl changes), the humanoid, a chain and sixteen
// seeded random trees with prismatic joints, springs and dampers. Models the
// recursions do not cover say why and keep the tangents.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { DynamicsDerivatives } from '../../src/codegen/dynamics-derivatives.ts';
import { inverseTangents } from '../../src/codegen/inverse-tangents.ts';
import type { Mechanism } from '../../src/library/multibody/index.ts';
import humanoid from '../../mechanisms/humanoid.ts';
import fourbar from '../../mechanisms/fourbar.ts';
import { cases, prng } from './cases.ts';
import { trees } from './trees.ts';
import { relative } from './differences.ts';

/** the analytical and the tangents' derivatives of one inverse model */
function both(build: () => Mechanism, mode: 'torn' | 'relaxed') {
  const inv = compile(build(), { problem: 'inverse', mode });
  const run = inv.inverseDynamics();
  const code = inverseTangents(inv);
  if (typeof code === 'string') throw new Error(code);
  return { inv, run, analytical: new DynamicsDerivatives(run, code), tangents: new DynamicsDerivatives(run, code, false) };
}

function agree(build: () => Mechanism, mode: 'torn' | 'relaxed', seed: number) {
  const { analytical, tangents } = both(build, mode);
  const n = analytical.n,
    rand = prng(seed),
    point = () => Float64Array.from({ length: n }, () => 2 * rand() - 1);
  for (let k = 0; k < 2; k++) {
    const q = point(),
      qd = point(),
      u = point();
    const a = analytical.forward(q, qd, u),
      b = tangents.forward(q, qd, u);
    for (const key of ['qdd', 'dqdd_dq', 'dqdd_dqd', 'dqdd_dtau'] as const) expect(relative(a[key], b[key]), key).toBeLessThan(1e-10);
    const c = analytical.inverse(q, qd, u),
      d = tangents.inverse(q, qd, u);
    for (const key of ['tau', 'dtau_dq', 'dtau_dqd', 'dtau_dqdd'] as const) expect(relative(c[key], d[key]), key).toBeLessThan(1e-10);
  }
  expect(analytical.method).toBe('analytical');
  expect(tangents.method).toBe('tangents: the generated tangents asked for');
}

const named = [...trees.filter((t) => !t.name.includes('URDF')), ...cases.map((c) => ({ name: c.name, build: c.mechanism }))];

describe('analytical derivatives of trees against the generated tangents (1e-10)', () => {
  for (const [k, t] of named.entries()) {
    for (const mode of ['relaxed', 'torn'] as const) {
      it(`${t.name}, ${mode}`, () => agree(t.build, mode, 100 + k), 120_000);
    }
  }

  it("the iiwa's servos: a changed ctrl moves their force, measured again, still equal", () => {
    const iiwa = trees.find((t) => t.name.startsWith('KUKA'))!;
    const { run, analytical, tangents } = both(iiwa.build, 'relaxed');
    const q = [0.1, -0.3, 0.2, 0.9, -0.4, 0.5, 0.3],
      qd = [0.5, 0, -0.2, 0.1, 0.3, -1, 0.2],
      tau = [1, -2, 0.5, 3, 0, 0.1, -0.2];
    const before = analytical.forward(q, qd, tau).qdd;
    run.state.setInput('actuator2.ctrl', 0.7);
    const a = analytical.forward(q, qd, tau),
      b = tangents.forward(q, qd, tau);
    expect(relative(a.qdd, before)).toBeGreaterThan(1e-3);
    for (const key of ['qdd', 'dqdd_dq', 'dqdd_dqd', 'dqdd_dtau'] as const) expect(relative(a[key], b[key]), key).toBeLessThan(1e-10);
    expect(analytical.method).toBe('analytical');
  }, 120_000);

  it('writes into out, the same numbers, and names a wrong-sized array', () => {
    const puma = trees.find((t) => t.name === 'PUMA 560')!;
    const run = compile(puma.build(), { problem: 'inverse' }).inverseDynamics();
    const q = [0.1, 0.5, -0.4, 0.2, 0.7, -0.3],
      qd = [0, 0.5, 0, 0, -1, 0],
      tau = [1, 2, 3, 0, 0, 0];
    const nn = () => new Float64Array(36);
    const out = { qdd: new Float64Array(6), dqdd_dq: nn(), dqdd_dqd: nn(), dqdd_dtau: nn() };
    const f = run.forwardDerivatives(q, qd, tau),
      g = run.forwardDerivatives(q, qd, tau, 0, { out });
    expect(g.dqdd_dq).toBe(out.dqdd_dq);
    // out itself is returned (as by inverseDerivatives): no object is made per call
    expect(g).toBe(out);
    for (const key of ['qdd', 'dqdd_dq', 'dqdd_dqd', 'dqdd_dtau'] as const) expect([...g[key]]).toEqual([...f[key]]);
    const iOut = { tau: new Float64Array(6), dtau_dq: nn(), dtau_dqd: nn(), dtau_dqdd: nn() };
    expect([...run.inverseDerivatives(q, qd, f.qdd, 0, { out: iOut }).dtau_dq]).toEqual([...run.inverseDerivatives(q, qd, f.qdd).dtau_dq]);
    expect(() => run.forwardDerivatives(q, qd, tau, 0, { out: { ...out, dqdd_dqd: new Float64Array(6) } })).toThrow(
      /options\.out\.dqdd_dqd must be a Float64Array of 36 entries/,
    );
  }, 120_000);

  it('says why a model keeps the tangents: limits, a free joint, a loop', () => {
    const urdf = trees.find((t) => t.name.includes('URDF'))!;
    expect(both(urdf.build, 'relaxed').analytical.method).toMatch(/^tangents: joint j1 has limits or friction/);
    expect(both(() => humanoid({ floating: 1 }), 'relaxed').analytical.method).toBe('tangents: free and ball joints keep the generated tangents');
    expect(both(() => fourbar(), 'torn').analytical.method).toBe('tangents: a kinematic loop');
  }, 120_000);
});
