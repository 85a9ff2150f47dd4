// The contact layer's pair selection on a mechanism built by hand
// (scene-pairs.ts, Mechanism.contactRules): parent and child through
// joints in series (a massless frame between two hinges) filtered, the
// parent filter switched off, body pairs excluded by path, explicit pairs
// touching whatever their bits say with their own parameters; mistakes in
// the rules are ModelErrors naming what is wrong.
import { describe, expect, it } from 'vitest';
import { ContactScene, Mechanism } from 'kron';
import type { Collider } from '../../src/contact/collider.ts';
import { ModelError } from '../../src/errors.ts';

// a free body A; B two hinges in series from A (no body between); C one hinge from B; every one a sphere
function chain() {
  const m = new Mechanism('chain', { gravity: [0, 0, 0] });
  const ball = (name: string): Collider => ({ name, shape: { type: 'sphere', radius: 0.1 } });
  const colliders = { a: ball('a'), b: ball('b'), c: ball('c'), off: { ...ball('off'), contype: 0, conaffinity: 0 } };
  const free = m.free('free');
  const A = m.body('A', { m: 1, I: [1, 1, 1], collision: [colliders.a, colliders.off] });
  const h1 = m.revolute('h1', { axis: [1, 0, 0] }),
    h2 = m.revolute('h2', { axis: [0, 1, 0] }),
    h3 = m.revolute('h3', { axis: [0, 0, 1] });
  const B = m.body('B', { m: 1, I: [1, 1, 1], collision: [colliders.b] });
  const C = m.body('C', { m: 1, I: [1, 1, 1], collision: [colliders.c] });
  (m.connect(m.world.frame_b, free.frame_a), m.connect(free.frame_b, A.frame_a));
  (m.connect(A.frame_a, h1.frame_a), m.connect(h1.frame_b, h2.frame_a), m.connect(h2.frame_b, B.frame_a));
  (m.connect(B.frame_a, h3.frame_a), m.connect(h3.frame_b, C.frame_a));
  return { m, colliders };
}

const pairsOf = (m: Mechanism) => {
  const scene = ContactScene.of(m);
  return scene.pairs.map(([i, j]) => `${scene.geometries[i].name}|${scene.geometries[j].name}`);
};

describe('pair selection (scene-pairs.ts)', () => {
  it('parent and child through two hinges in series are filtered; grandparent and grandchild touch', () => {
    expect(pairsOf(chain().m)).toEqual(['A.a|C.c']);
  });

  it('filterParent false: parent and child touch', () => {
    const { m } = chain();
    m.contactRules.filterParent = false;
    expect(pairsOf(m)).toEqual(['A.a|B.b', 'A.a|C.c', 'B.b|C.c']);
  });

  it('an excluded body pair never touches; an explicit pair always, with its parameters, and no filtered pair beside it', () => {
    const { m, colliders } = chain();
    m.contactRules.exclude.push(['C', 'A']);
    m.contactRules.pairs.push({ a: colliders.off, b: colliders.c, material: { stiffness: 1e3, damping: 1, friction: 0.25 } });
    m.contactRules.pairs.push({ a: colliders.b, b: colliders.a });
    const scene = ContactScene.of(m);
    const names = scene.pairs.map(([i, j]) => `${scene.geometries[i].name}|${scene.geometries[j].name}`);
    expect(names).toEqual(['A.a|B.b', 'A.off|C.c']);
    const own = scene.materials[names.indexOf('A.off|C.c')];
    expect([own.k, own.c, own.mu]).toEqual([1e3, 1, 0.25]);
  });

  it('rules naming what is not there are ModelErrors', () => {
    const unknown = chain();
    unknown.m.contactRules.exclude.push(['A', 'Z']);
    expect(() => ContactScene.of(unknown.m)).toThrow(ModelError);
    expect(() => ContactScene.of(unknown.m)).toThrow(/contact exclusion A \/ Z: Z is not a body of the mechanism/);
    const stranger = chain();
    stranger.m.contactRules.pairs.push({ a: stranger.colliders.a, b: { name: 'elsewhere', shape: { type: 'sphere', radius: 1 } } });
    expect(() => ContactScene.of(stranger.m)).toThrow(/explicit contact pair a \/ elsewhere: elsewhere is not a collision geometry of the mechanism/);
    const twice = chain();
    twice.m.contactRules.pairs.push({ a: twice.colliders.a, b: twice.colliders.c }, { a: twice.colliders.c, b: twice.colliders.a });
    expect(() => ContactScene.of(twice.m)).toThrow(/explicit contact pair A\.a \/ C\.c is given twice/);
  });
});
