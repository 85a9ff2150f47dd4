// The run's plane culls (run.ts, clearOf: a geometry whose bounds lie wholly
// above a plane gets no plane test; body-cull.ts: a body farther above every
// plane than its geometries reach gets no pose either). Oracle: the narrow
// phase itself, called on world poses composed here from the model's frames
// (frame_a's R and r read from the evaluated model) for every (plane,
// geometry) pair the scene has: the run finds exactly its contacts (same
// pairs, same depths, same points), and what it skipped the narrow phase
// finds nothing for. Seeded
// random poses of a sphere, capsule, box and cylinder over two tilted
// planes, from clear above to deep through.
import { describe, expect, it } from 'vitest';
import { ContactScene, Mechanism, compile } from 'kron';
import { ContactRun } from '../../src/contact/run.ts';
import { ContactList } from '../../src/contact/narrow/contact-list.ts';
import { collide } from '../../src/contact/narrow/collide.ts';
import { POSE_STRIDE, composePose } from '../../src/contact/pose.ts';
import type { CollisionShape } from '../../src/contact/shapes.ts';
import { rng } from '../structure/helpers.ts';

const SHAPES: CollisionShape[] = [
  { type: 'sphere', radius: 0.1 },
  { type: 'capsule', radius: 0.05, length: 0.3 },
  { type: 'box', size: [0.3, 0.1, 0.2] },
  { type: 'cylinder', radius: 0.08, length: 0.25 },
];

function scene(): Mechanism {
  const m = new Mechanism('cull');
  SHAPES.forEach((shape, k) => {
    const j = m.free(`j${k}`),
      b = m.body(`b${k}`, { m: 1, I: [0.01, 0.01, 0.01], collision: [{ shape, contype: 1, conaffinity: 0 }] }); // the bodies touch the planes only
    (m.connect(m.world.frame_b, j.frame_a), m.connect(j.frame_b, b.frame_a));
  });
  m.ground({ name: 'tilted', normal: [0.2, 1, 0.1], contype: 0, conaffinity: 1 });
  m.ground({ name: 'wall', normal: [-1, 0.3, 0], point: [0.6, 0, 0], contype: 0, conaffinity: 1 });
  return m;
}

// (contacts) => each as "pair dist point", sorted, to 12 digits
const listed = (c: ContactList) =>
  Array.from({ length: c.count }, (_, k) => `${c.pair[k]} ${c.dist[k].toFixed(12)} ${[0, 1, 2].map((i) => c.point[3 * k + i].toFixed(12)).join(' ')}`).sort();

describe('the plane cull', () => {
  it('finds exactly the contacts of testing every plane pair, and skips only pairs without any', () => {
    const m = scene(),
      compiled = compile(m),
      state = compiled.createState(),
      contact = ContactScene.of(m);
    const run = new ContactRun(contact, state);
    const r = rng(71);
    let skipped = 0,
      found = 0;
    for (let trial = 0; trial < 200; trial++) {
      const x = new Float64Array(compiled.stateNames.length);
      compiled.stateNames.forEach((n, i) => {
        if (n.includes('.r[')) x[i] = n.endsWith('[2]') ? 0.6 * r() - 0.2 : 0.8 * r() - 0.2;
        else if (n.includes('.Q[')) x[i] = r() - 0.5;
        else x[i] = 0;
      });
      state.normalize(x);
      run.apply(0, x);
      state.derivatives(0, x, new Float64Array(x.length));
      const poses = new Float64Array(POSE_STRIDE * contact.geometries.length);
      contact.geometries.forEach((g, i) => {
        const b = contact.bodies[g.body],
          read = (n: string) => (b === undefined ? (n.includes('R') ? +(n[n.length - 5] === n[n.length - 2]) : 0) : state.reader(`${b}.frame_a.${n}`)(x));
        const R = [1, 2, 3].flatMap((r) => [1, 2, 3].map((c) => read(`R[${r}][${c}]`))),
          o = [1, 2, 3].map((k) => read(`r[${k}]`));
        composePose(poses, POSE_STRIDE * i, R, o, g.R, g.offset);
      });
      const every = new ContactList();
      contact.pairs.forEach(([i, j], p) =>
        collide(every, poses, POSE_STRIDE * i, contact.geometries[i].shape, POSE_STRIDE * j, contact.geometries[j].shape, 0, p),
      );
      expect(listed(run.contacts)).toEqual(listed(every));
      ((skipped += contact.pairs.length - run.narrowTests), (found += run.contacts.count));
    }
    // both ways exercised: pairs skipped, and contacts found
    expect(skipped).toBeGreaterThan(100);
    expect(found).toBeGreaterThan(100);
  });
});
