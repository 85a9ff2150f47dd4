// Floating robots against MuJoCo (issue 29): the quadruped HyQ and the
// humanoid Atlas of the rbd-benchmarks suite (bench/robots), read from their
// URDF with the root on a free joint, against MuJoCo's qacc (the official
// WebAssembly build) with a <freejoint/> root, at 50 random states each, in
// both forms. The oracle is an independent engine: MuJoCo's CRBA and sparse
// LDL on the MJCF written from the same mechanism (src/bench/mjcf.ts), its
// free joint's qpos / qvel / qfrc_applied filled from Kron's r, Q, v, w and
// the inputs f, tau (src/bench/mjcf-state.ts), with random generalized forces
// on every joint and on the base.
import { afterAll, describe, expect, it } from 'vitest';
import { compile, type Mode } from '../../src/compile.ts';
import { accelerationsAt, randomState, relativeDifference } from '../../src/bench/agreement.ts';
import { mjcf, referenceValues } from '../../src/bench/mjcf.ts';
import { MujocoPeer } from '../../src/bench/mujoco.ts';
import { FLOATING_ROBOTS, floatingRobot } from '../../src/bench/robots.ts';
import { rng } from '../../src/bench/timing.ts';

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
