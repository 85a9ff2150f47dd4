// Floating robots against MuJoCo (issue 29): the quadruped HyQ and the
// humanoid Atlas of the rbd-benchmarks suite (bench/robots), read from their
// URDF with the root on a free joint, against MuJoCo's qacc (the official
// WebAssembly build) with a <freejoint/> root, at 50 random states each, in
// both forms. The oracle is an independent engine: MuJoCo's CRBA and sparse
// LDL on the MJCF written from the same mechanism (src/bench/mjcf.ts), its
// free joint's qpos / qvel / qfrc_applied filled from Kron's r, Q, v, w and
// the inputs f, tau (src/bench/mjcf-state.ts), with random generalized forces
// on every joint and on the base. And against the floating-base oracle
// (test/oracles/floating.ts: Featherstone's ABA and CRBA on plain numbers),
// on a tree read from the URDF text without Kron's reader
// (test/bench/urdf-floating-tree.ts).
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, type Mode } from '../../src/compile.ts';
import { accelerationsAt, randomState, relativeDifference } from '../../src/bench/agreement.ts';
import { mjcf, referenceValues } from '../../src/bench/mjcf.ts';
import { MujocoPeer } from '../../src/bench/mujoco.ts';
import { FLOATING_ROBOTS, floatingRobot, robotFile } from '../../src/bench/robots.ts';
import { rng } from '../../src/bench/timing.ts';
import { floatingModel, forwardDynamics } from '../oracles/floating.ts';
import { urdfFloatingTree } from '../bench/urdf-floating-tree.ts';

const peers: MujocoPeer[] = [];
afterAll(() => peers.forEach((p) => p.delete()));

/** the root links of the two URDFs: the free joint is <root link>_free */
const ROOTS = { hyq: 'base_link', atlas: 'pelvis' };

describe('floating robots: Kron against MuJoCo qacc with a freejoint root', () => {
  for (const { name, title, joints } of FLOATING_ROBOTS) {
    for (const mode of ['relaxed', 'torn'] as Mode[]) {
      it(`${title} (${joints} + 6 dof), ${mode}: base and joint accelerations at 50 random states with random forces, to 1e-10 relative`, async () => {
        const mech = floatingRobot(name);
        const c = compile(mech, { mode });
        const doc = mjcf(mech, referenceValues(c));
        const peer = await MujocoPeer.load(doc);
        peers.push(peer);
        expect([peer.model.nq, peer.nv]).toEqual([7 + joints, 6 + joints]);
        expect(doc.joints[0]).toBe(`${ROOTS[name]}_free`);
        const state = c.createState();
        const inputs = c.generated.layout.inputs;
        // every joint's torque and the base's force and torque
        expect(inputs.length).toBe(joints + 6);
        const rand = rng(name === 'hyq' ? 12 : 30);
        let worst = 0;
        for (let k = 0; k < 50; k++) {
          for (const u of inputs) state.setInput(u, 20 * (2 * rand() - 1));
          const a = accelerationsAt(state, doc, peer, randomState(state, rand));
          expect(a.names.length).toBe(6 + joints);
          worst = Math.max(worst, relativeDifference(a));
        }
        expect(worst).toBeLessThan(1e-10);
      });
    }
  }
});

describe('floating robots: Kron against the floating-base oracle (ABA and CRBA from the book, the URDF read independently)', () => {
  for (const { name, title, joints } of FLOATING_ROBOTS) {
    // URDF's usual gravity, standard gravity (src/io/urdf.ts's default)
    const { tree, q, v, tau } = urdfFloatingTree(readFileSync(robotFile(name), 'utf8'), [0, 0, -9.80665]);
    const model = floatingModel(tree);
    for (const mode of ['relaxed', 'torn'] as Mode[]) {
      it(`${title} (${joints} + 6 dof), ${mode}: der(v), der(w), der(qd) equal the oracle's ABA and CRBA at 50 random states with random forces, to 1e-10 relative`, () => {
        expect([model.nq, model.nv]).toEqual([7 + joints, 6 + joints]);
        const c = compile(floatingRobot(name), { mode });
        const state = c.createState();
        const index = (n: string) => {
          const i = c.stateNames.indexOf(n);
          expect(i, `${n} is a state`).toBeGreaterThanOrEqual(0);
          return i;
        };
        const [qi, vi] = [q.map(index), v.map(index)];
        const inputs = c.generated.layout.inputs;
        expect([...inputs].sort()).toEqual([...tau].sort());
        const rand = rng(name === 'hyq' ? 112 : 130);
        let worst = 0;
        for (let k = 0; k < 50; k++) {
          const u = tau.map(() => 20 * (2 * rand() - 1));
          tau.forEach((n, i) => state.setInput(n, u[i]));
          const x = randomState(state, rand),
            dx = new Float64Array(x.length);
          state.derivatives(0, x, dx);
          const kron = vi.map((i) => dx[i]);
          const [qs, vs] = [qi.map((i) => x[i]), vi.map((i) => x[i])];
          const aba = forwardDynamics(model, qs, vs, u),
            crba = forwardDynamics(model, qs, vs, u, undefined, 'crba');
          const scale = Math.max(...aba.map(Math.abs));
          worst = Math.max(worst, ...kron.map((a, i) => Math.abs(a - aba[i]) / scale), ...crba.map((a, i) => Math.abs(a - aba[i]) / scale));
        }
        expect(worst).toBeLessThan(1e-10);
      });
    }
  }
});
