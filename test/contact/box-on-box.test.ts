// A box resting on a box (box-box, narrow/box-box.ts, through the compiled
// model): dropped turned 30 degrees about the vertical onto a table (a box
// fixed in the world), it comes to rest on its four bottom corners, their
// normal forces summing to its weight to 1e-9 and equal by symmetry (its
// centre of mass over the middle of its bottom face), each m g / (4 k) deep.
import { describe, expect, it } from 'vitest';
import { ContactScene, Mechanism, compile, simulate } from 'kron';
import { ContactRun } from '../../src/contact/run.ts';

describe('a box resting on a box', () => {
  it('four corner forces, equal, summing to the weight to 1e-9', () => {
    const g = 9.81,
      m = 2,
      size = [0.4, 0.2, 0.3] as const,
      k = 1e5,
      th = Math.PI / 6;
    const mech = new Mechanism('box-on-box', { gravity: [0, -g, 0] });
    const j = mech.free('j', { r: [0.05, size[1] / 2 + 0.005, -0.03], Q: [Math.cos(th / 2), 0, Math.sin(th / 2), 0] });
    const I = (a: number, b: number) => (m * (a * a + b * b)) / 12;
    const box = mech.body('box', {
      m,
      I: [I(size[1], size[2]), I(size[0], size[2]), I(size[0], size[1])],
      collision: [{ shape: { type: 'box', size: [...size] }, material: { stiffness: k, damping: 2 * Math.sqrt((k * m) / 4), friction: 0.5 } }],
    });
    // the table: its top face the plane y = 0
    mech.worldCollision.push({ name: 'table', shape: { type: 'box', size: [1, 0.2, 1] }, offset: [0, -0.1, 0] });
    (mech.connect(mech.world.frame_b, j.frame_a), mech.connect(j.frame_b, box.frame_a));
    const scene = ContactScene.of(mech),
      compiled = compile(mech);
    const res = simulate(compiled, { stop: 1, step: 1e-4, interval: 1, contact: scene });
    const run = new ContactRun(scene, compiled.createState());
    run.apply(1, Float64Array.from(compiled.stateNames.map((n) => res.final(n))));
    const fn = [...run.normalForces.subarray(0, run.contacts.count)].filter((_, i) => run.contacts.dist[i] < 0);
    expect(fn).toHaveLength(4);
    expect(Math.abs(fn.reduce((a, b) => a + b, 0) / (m * g) - 1)).toBeLessThan(1e-9);
    for (const f of fn) expect(Math.abs(f / ((m * g) / 4) - 1)).toBeLessThan(1e-9);
    expect(Math.abs(res.final('j.r[2]') - (size[1] / 2 - (m * g) / (4 * k)))).toBeLessThan(1e-9);
  });
});
