// The body cull with pairs between bodies (body-cull.ts: a body above every
// plane and whose box overlaps no partner's gets no pose, no bounds and no
// test). Oracles: the same run with the cull off (every geometry posed and
// bounded, sweep and prune over all of them), whose contacts and wrenches
// the culled run must give bit for bit; and the narrow phase called on every
// pair of the scene (world poses composed here from the model's frames),
// whose contacts it must find, skipping only pairs where there are none.
// Seeded random robots (chains of shapes on free roots, every limb pair the
// parent filter allows) over a tilted floor with a post, from apart and
// high above to tangled and deep through; and Go2 standing.
import { describe, expect, it } from 'vitest';
import { ContactScene, Mechanism, compile, simulate } from 'kron';
import { ContactRun } from '../../src/contact/run.ts';
import { ContactList } from '../../src/contact/narrow/contact-list.ts';
import { collide } from '../../src/contact/narrow/collide.ts';
import { POSE_STRIDE, composePose } from '../../src/contact/pose.ts';
import type { CollisionShape } from '../../src/contact/shapes.ts';
import { go2Kron } from '../../bench/contact-robots/go2.ts';
import { rng } from '../structure/helpers.ts';

// (random) => a shape of 3..25 cm
function shape(r: () => number): CollisionShape {
  const s = () => 0.03 + 0.1 * r();
  switch (Math.floor(5 * r())) {
    case 0:
      return { type: 'sphere', radius: s() };
    case 1:
      return { type: 'capsule', radius: s() / 2, length: 2 * s() };
    case 2:
      return { type: 'box', size: [2 * s(), 2 * s(), 2 * s()] };
    case 3:
      return { type: 'cylinder', radius: s(), length: 2 * s() };
    default: {
      const h = [s(), s(), s()];
      return {
        type: 'convex',
        vertices: [-1, 1].flatMap((a) => [-1, 1].flatMap((b) => [-1, 1].flatMap((c) => [a * h[0] * (0.7 + 0.3 * r()), b * h[1], c * h[2]]))),
      };
    }
  }
}

// (seed) => three chains of 1..3 bodies (each 1..2 shapes), free roots, revolute links; a tilted floor and a post
function robots(seed: number): Mechanism {
  const r = rng(seed),
    m = new Mechanism(`limbs${seed}`);
  const unit = () => {
    const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5],
      n = Math.hypot(...q);
    return q.map((v) => v / n) as [number, number, number, number];
  };
  for (let c = 0; c < 3; c++) {
    let parent = m.world.frame_b;
    const links = 1 + Math.floor(3 * r());
    for (let l = 0; l < links; l++) {
      const joint = l === 0 ? m.free(`c${c}root`) : m.revolute(`c${c}j${l}`, { axis: [r() - 0.5, r() - 0.5, 1] });
      const body = m.body(`c${c}b${l}`, {
        m: 1,
        I: [0.01, 0.01, 0.01],
        collision: Array.from({ length: 1 + Math.floor(2 * r()) }, () => ({
          shape: shape(r),
          offset: [0.3 * r() - 0.1, 0.2 * r() - 0.1, 0.2 * r() - 0.1] as [number, number, number],
          orientation: unit(),
        })),
      });
      (m.connect(parent, joint.frame_a), m.connect(joint.frame_b, body.frame_a));
      if (l + 1 < links) {
        const bar = m.bar(`c${c}bar${l}`, { r: [0.25, 0, 0] });
        (m.connect(body.frame_a, bar.frame_a), (parent = bar.frame_b));
      }
    }
  }
  m.ground({ name: 'floor', normal: [0.1, 1, -0.05] });
  m.worldCollision.push({ name: 'post', shape: { type: 'box', size: [0.1, 1, 0.1] }, offset: [0.3, 0.4, 0] });
  return m;
}

// (contacts) => each as "pair dist point normal", sorted, to 12 digits
const listed = (c: ContactList) =>
  Array.from(
    { length: c.count },
    (_, k) => `${c.pair[k]} ${c.dist[k].toFixed(12)} ${[0, 1, 2].map((i) => `${c.point[3 * k + i].toFixed(12)} ${c.normal[3 * k + i].toFixed(12)}`).join(' ')}`,
  ).sort();
// (contacts) => every number of every contact, in order
const exact = (c: ContactList) => [
  c.count,
  ...c.pair.subarray(0, c.count),
  ...c.dist.subarray(0, c.count),
  ...c.point.subarray(0, 3 * c.count),
  ...c.normal.subarray(0, 3 * c.count),
];

describe('the body cull with limb pairs', () => {
  it('gives the contacts and wrenches of the run without cull bit for bit, at random states of random robots', () => {
    let culledBodies = 0,
      limbContacts = 0,
      planeContacts = 0,
      skipped = 0;
    for (let seed = 1; seed <= 3; seed++) {
      const m = robots(seed),
        compiled = compile(m),
        scene = ContactScene.of(m);
      const culled = new ContactRun(scene, compiled.createState()),
        plain = new ContactRun(scene, compiled.createState(), 'kinematics', undefined, 0, false),
        state = compiled.createState();
      expect(scene.pairs.some(([i, j]) => scene.geometries[i].shape.type !== 'plane' && scene.geometries[j].shape.type !== 'plane')).toBe(true);
      const r = rng(100 + seed);
      for (let trial = 0; trial < 100; trial++) {
        // the roots spread over a cube whose side shrinks with the trial: apart and high at first, tangled and through the floor later
        const side = 2.5 - (2.2 * trial) / 100;
        const x = new Float64Array(compiled.stateNames.length);
        compiled.stateNames.forEach((n, i) => {
          if (n.includes('.r[')) x[i] = n.endsWith('[2]') ? side * r() - 0.15 : side * (r() - 0.5);
          else if (n.includes('.Q[')) x[i] = r() - 0.5;
          else if (n.endsWith('.q')) x[i] = 6 * r() - 3;
          else x[i] = 2 * r() - 1;
        });
        state.normalize(x);
        (culled.apply(0, x), plain.apply(0, x));
        expect(exact(culled.contacts)).toEqual(exact(plain.contacts));
        expect(Array.from(culled.wrench)).toEqual(Array.from(plain.wrench));
        expect(culled.narrowTests).toBeLessThanOrEqual(plain.narrowTests);
        // the narrow phase on every pair, on poses from the evaluated model's frames
        state.derivatives(0, x, new Float64Array(x.length));
        const poses = new Float64Array(POSE_STRIDE * scene.geometries.length);
        scene.geometries.forEach((g, i) => {
          const b = scene.bodies[g.body],
            read = (n: string) => state.reader(`${b}.frame_a.${n}`)(x);
          const R = b === undefined ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : [1, 2, 3].flatMap((i) => [1, 2, 3].map((j) => read(`R[${i}][${j}]`))),
            o = b === undefined ? [0, 0, 0] : [1, 2, 3].map((k) => read(`r[${k}]`));
          composePose(poses, POSE_STRIDE * i, R, o, g.R, g.offset);
        });
        const every = new ContactList();
        scene.pairs.forEach(([i, j], p) => collide(every, poses, POSE_STRIDE * i, scene.geometries[i].shape, POSE_STRIDE * j, scene.geometries[j].shape, 0, p));
        expect(listed(culled.contacts)).toEqual(listed(every));
        const cull = (culled as unknown as { cull: { needed: Uint8Array } }).cull;
        culledBodies += cull.needed.length - cull.needed.reduce((a, b) => a + b, 0);
        skipped += scene.pairs.length - culled.narrowTests;
        for (let k = 0; k < culled.contacts.count; k++) {
          const [i, j] = scene.pairs[culled.contacts.pair[k]];
          if (scene.geometries[i].shape.type === 'plane' || scene.geometries[j].shape.type === 'plane') planeContacts++;
          else limbContacts++;
        }
      }
    }
    // every branch exercised: bodies culled, pairs skipped, contacts between limbs and with the floor found
    expect(culledBodies).toBeGreaterThan(100);
    expect(skipped).toBeGreaterThan(1000);
    expect(limbContacts).toBeGreaterThan(100);
    expect(planeContacts).toBeGreaterThan(100);
  });

  it("Go2 standing: its hips and thighs culled, the run's contacts and trajectory those of the run without cull", () => {
    const go2 = go2Kron(),
      names = go2.compiled.stateNames;
    const res = simulate(go2.compiled, {
      stop: 0.3,
      interval: 0.1,
      signals: [...names, ...go2.normalForces],
      controller: go2.controller,
      start: go2.start,
      contact: go2.contact,
    });
    const x = Float64Array.from(names.map((n) => res.get(n).at(-1)!));
    const culled = new ContactRun(go2.contact, go2.compiled.createState()),
      plain = new ContactRun(go2.contact, go2.compiled.createState(), 'kinematics', undefined, 0, false);
    (culled.apply(0.3, x), plain.apply(0.3, x));
    expect(exact(culled.contacts)).toEqual(exact(plain.contacts));
    expect(Array.from(culled.wrench)).toEqual(Array.from(plain.wrench));
    expect(culled.contacts.count).toBe(4);
    const needed = (culled as unknown as { cull: { needed: Uint8Array } }).cull.needed;
    expect(go2.contact.bodies.filter((_, b) => !needed[b]).sort()).toEqual([
      'FL_hip',
      'FL_thigh',
      'FR_hip',
      'FR_thigh',
      'RL_hip',
      'RL_thigh',
      'RR_hip',
      'RR_thigh',
    ]);
    // standing: the feet carry the weight (a PD posture, not exact: 1e-2 at 0.3 s)
    const weight = go2.mass * 9.81,
      fn = go2.normalForces.reduce((s, n) => s + res.get(n).at(-1)!, 0);
    expect(Math.abs(fn / weight - 1)).toBeLessThan(1e-2);
    expect(res.get('base_free.r[3]').at(-1)).toBeGreaterThan(0.2);
  });
});
