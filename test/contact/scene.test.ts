// The scene a mechanism's collision geometry makes: which pairs may touch,
// and the typed errors for what the contact cannot do yet or is given wrong.
import { describe, expect, it } from 'vitest';
import { ContactScene, Mechanism, UsageError } from 'kron';

function chain(collisionB: object[] = [{ shape: { type: 'sphere', radius: 0.1 } }]) {
  const m = new Mechanism('chain');
  const f = m.free('f');
  const a = m.body('a', { m: 1, I: [1, 1, 1], collision: [{ shape: { type: 'sphere', radius: 0.1 }, name: 'foot' }] });
  const j = m.revolute('j', { axis: [0, 0, 1] });
  const b = m.body('b', { m: 1, I: [1, 1, 1], collision: collisionB as never });
  const j2 = m.revolute('j2', { axis: [0, 0, 1] });
  const c = m.body('c', { m: 1, I: [1, 1, 1], collision: [{ shape: { type: 'capsule', radius: 0.1, length: 0.3 } }] });
  m.ground();
  (m.connect(m.world.frame_b, f.frame_a), m.connect(f.frame_b, a.frame_a), m.connect(a.frame_a, j.frame_a), m.connect(j.frame_b, b.frame_a));
  (m.connect(b.frame_a, j2.frame_a), m.connect(j2.frame_b, c.frame_a));
  return m;
}

describe('contact scene', () => {
  it('pairs: everything with the ground, never a parent with its child; a grandparent with its grandchild may touch', () => {
    const s = ContactScene.of(chain());
    const names = s.pairs.map(([i, j]) => `${s.geometries[i].name}|${s.geometries[j].name}`);
    expect(names.sort()).toEqual(['a.foot|c.collision1', 'world.ground|a.foot', 'world.ground|b.collision1', 'world.ground|c.collision1'].sort());
    expect(s.bodies).toEqual(['a', 'b', 'c']);
  });

  it('contype/conaffinity take a pair out', () => {
    const m = chain();
    ((m.worldCollision[0].contype = 2), (m.worldCollision[0].conaffinity = 2));
    expect(ContactScene.of(m).pairs).toHaveLength(1);
  });

  it('box and cylinder, once without a narrow phase, now make a pair (GJK and EPA, convex-pair.ts)', () => {
    const m = new Mechanism('boxes');
    for (const [name, shape] of [
      ['p', { type: 'box', size: [1, 1, 1] }],
      ['q', { type: 'cylinder', radius: 0.5, length: 1 }],
    ] as const) {
      const f = m.free(`${name}j`);
      const b = m.body(name, { m: 1, I: [1, 1, 1], collision: [{ shape }] });
      (m.connect(m.world.frame_b, f.frame_a), m.connect(f.frame_b, b.frame_a));
    }
    const scene = ContactScene.of(m);
    expect(scene.pairs.map(([i, j]) => [scene.geometries[i].name, scene.geometries[j].name])).toEqual([['p.collision1', 'q.collision1']]);
  });

  it('bad geometry, parameters or options are typed errors naming the body', () => {
    expect(() => chain([{ shape: { type: 'sphere', radius: 0 } }])).toThrow(/collision geometry of b \(collision1\): sphere radius 0/);
    expect(() => chain([{ shape: { type: 'sphere', radius: 1 }, material: { stiffness: -5 } }])).toThrow(
      /contact parameters of b \(collision1\): stiffness -5/,
    );
    expect(() => chain([{ shape: { type: 'sphere', radius: 1 }, offset: [0, 1] }])).toThrow(/offset \[0, 1\] is not 3 finite numbers/);
    expect(() => chain([{ shape: { type: 'sphere', radius: 1 }, contype: 1.5 }])).toThrow(/contype 1.5 is not a bitmask/);
    expect(() => new Mechanism('g').ground({ normal: [0, 0, 0] })).toThrow(UsageError);
    expect(() => ContactScene.of(chain(), { slipSpeed: 0 })).toThrow(/slipSpeed 0/);
  });
});
