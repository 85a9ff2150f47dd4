// A box-shaped convex hull resting on a box, and a cylinder standing on a
// box (narrow/convex-pair.ts: GJK, EPA and the clipped manifold, through the
// compiled model), as box-on-box.test.ts: dropped turned 30 degrees about
// the vertical onto a table, the hull comes to rest on its four bottom
// corners, equal and summing to its weight to 1e-9, m g / (4 k) deep; the
// cylinder on its eight rim points, likewise (m g / (8 k) deep): neither
// rocks on a single EPA point.
import { describe, expect, it } from 'vitest';
import { ContactScene, Mechanism, compile, simulate } from 'kron';
import { ContactRun } from '../../src/contact/run.ts';
import type { CollisionShape } from '../../src/contact/shapes.ts';

const g = 9.81,
  m = 2,
  k = 1e5,
  th = Math.PI / 6;

// (shape, its half height, its inertia, how many contacts it rests on) => the rest checked
function restsOn(shape: CollisionShape, half: number, I: [number, number, number], points: number) {
  const mech = new Mechanism('on-table', { gravity: [0, -g, 0] });
  // the shape's z axis turned onto +y (its end or face down), then 30 degrees about the vertical
  const q1 = [Math.sin(-Math.PI / 4), 0, 0, Math.cos(-Math.PI / 4)],
    q2 = [0, Math.sin(th / 2), 0, Math.cos(th / 2)];
  // q = q2 q1 as [w, x, y, z] for the free joint
  const w = q2[3] * q1[3] - q2[1] * q1[1],
    x = q2[3] * q1[0] - q2[1] * q1[2],
    y = q2[3] * q1[1] + q2[1] * q1[3],
    z = -q2[1] * q1[0];
  const j = mech.free('j', { r: [0.05, half + 0.005, -0.03], Q: [w, x, y, z] });
  const body = mech.body('b', { m, I, collision: [{ shape, material: { stiffness: k, damping: 2 * Math.sqrt((k * m) / points), friction: 0.5 } }] });
  mech.worldCollision.push({ name: 'table', shape: { type: 'box', size: [1, 0.2, 1] }, offset: [0, -0.1, 0] });
  (mech.connect(mech.world.frame_b, j.frame_a), mech.connect(j.frame_b, body.frame_a));
  const scene = ContactScene.of(mech),
    compiled = compile(mech);
  const res = simulate(compiled, { stop: 1, step: 1e-4, interval: 1, contact: scene });
  const run = new ContactRun(scene, compiled.createState());
  run.apply(1, Float64Array.from(compiled.stateNames.map((n) => res.final(n))));
  const fn = [...run.normalForces.subarray(0, run.contacts.count)].filter((_, i) => run.contacts.dist[i] < 0);
  expect(fn).toHaveLength(points);
  expect(Math.abs(fn.reduce((a, b) => a + b, 0) / (m * g) - 1)).toBeLessThan(1e-9);
  for (const f of fn) expect(Math.abs(f / ((m * g) / points) - 1)).toBeLessThan(1e-9);
  expect(Math.abs(res.final('j.r[2]') - (half - (m * g) / (points * k)))).toBeLessThan(1e-9);
}

describe('resting on a box through GJK and EPA', () => {
  it('a hull of a box: four corner forces, equal, summing to the weight to 1e-9', () => {
    const h = [0.2, 0.15, 0.1];
    const vertices = Array.from({ length: 8 }, (_, c) => [(c & 1 ? 1 : -1) * h[0], (c & 2 ? 1 : -1) * h[1], (c & 4 ? 1 : -1) * h[2]]).flat();
    const I = (a: number, b: number) => (m * 4 * (a * a + b * b)) / 12;
    restsOn({ type: 'convex', vertices }, h[2], [I(h[1], h[2]), I(h[0], h[2]), I(h[0], h[1])], 4);
  });

  it('a cylinder on its end: eight rim forces, equal, summing to the weight to 1e-9', () => {
    const r = 0.15,
      l = 0.2;
    const Ix = (m * (3 * r * r + l * l)) / 12;
    restsOn({ type: 'cylinder', radius: r, length: l }, l / 2, [Ix, Ix, (m * r * r) / 2], 8);
  });
});
