// An MJCF robot touches itself as its file says: the contact scene's pairs
// against a plain enumeration of MuJoCo's contact selection written here
// (engine_collision_driver.c: explicit pairs always; else the bitmasks,
// different weld bodies, no parent-child pair unless filterparent is
// disabled or one is the world, no excluded body pair), over a hand-built
// file whose bodies' weld groups are listed by hand: masks from geoms and
// classes, a body welded to its parent, a body on three hinges, a static
// geom of the world, <exclude>, <pair> (overriding an exclusion, merging
// with a filtered pair, joining a geom that collides with nothing else);
// bodies joined by <equality> constraints, which MuJoCo's parent filter
// does not see (it follows the body tree).
import { describe, expect, it } from 'vitest';
import { ContactScene } from 'kron';
import { mjcfMechanism, parseMjcf } from '../../src/io/mjcf.ts';
import { ModelError } from '../../src/errors.ts';

const file = (flag: string, contact: string) => `<mujoco model="filter">
  ${flag}
  <default>
    <pair friction="0.4"/>
    <default class="k"><geom contype="2" conaffinity="2"/></default>
  </default>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 .1"/>
    <geom name="post" type="box" size=".1 .1 .5" pos="3 0 .5" contype="4" conaffinity="0"/>
    <body name="A" pos="0 0 1">
      <freejoint/>
      <geom name="a1" type="sphere" size=".1"/>
      <geom name="a2" type="capsule" size=".05 .2" class="k"/>
      <body name="B" pos=".5 0 0">
        <joint type="hinge" axis="0 1 0"/>
        <geom name="b1" type="box" size=".1 .1 .1"/>
        <body name="C" pos=".5 0 0">
          <joint type="hinge" axis="1 0 0"/><joint type="hinge" axis="0 1 0"/><joint type="hinge" axis="0 0 1"/>
          <geom name="c1" type="capsule" size=".05 .1" contype="1" conaffinity="4"/>
          <body name="D" pos=".3 0 0">
            <geom name="d1" type="sphere" size=".05" contype="4" conaffinity="2"/>
          </body>
        </body>
      </body>
    </body>
    <body name="E" pos="2 0 1">
      <freejoint/>
      <geom name="e1" type="cylinder" size=".1 .1" class="k"/>
      <geom name="e2" type="sphere" size=".1" pos="0 0 .3" contype="0" conaffinity="0"/>
    </body>
    <body name="F" pos="-2 0 1">
      <freejoint/>
      <geom name="f1" type="box" size=".1 .1 .1" condim="1"/>
    </body>
  </worldbody>
  ${contact}
</mujoco>`;

const CONTACT = `<contact>
    <exclude body1="A" body2="F"/>
    <exclude body1="F" body2="B"/>
    <pair geom1="e2" geom2="b1" condim="1"/>
    <pair geom1="a1" geom2="f1" solref="0.01 1"/>
    <pair geom1="a2" geom2="e1" friction="0.3"/>
  </contact>`;

// the file's geoms by hand: body, weld body (the body a joint moves: D is welded to C), the weld body's parent's weld body, bitmasks
const GEOMS: Record<string, { body: string; weld: string; weldParent: string; contype: number; conaffinity: number; plane?: true }> = {
  floor: { body: 'world', weld: 'world', weldParent: 'world', contype: 1, conaffinity: 1, plane: true },
  post: { body: 'world', weld: 'world', weldParent: 'world', contype: 4, conaffinity: 0 },
  a1: { body: 'A', weld: 'A', weldParent: 'world', contype: 1, conaffinity: 1 },
  a2: { body: 'A', weld: 'A', weldParent: 'world', contype: 2, conaffinity: 2 },
  b1: { body: 'B', weld: 'B', weldParent: 'A', contype: 1, conaffinity: 1 },
  c1: { body: 'C', weld: 'C', weldParent: 'B', contype: 1, conaffinity: 4 },
  d1: { body: 'D', weld: 'C', weldParent: 'B', contype: 4, conaffinity: 2 },
  e1: { body: 'E', weld: 'E', weldParent: 'world', contype: 2, conaffinity: 2 },
  e2: { body: 'E', weld: 'E', weldParent: 'world', contype: 0, conaffinity: 0 },
  f1: { body: 'F', weld: 'F', weldParent: 'world', contype: 1, conaffinity: 1 },
};

// MuJoCo's selection, enumerated plainly: "g|h" for each pair that is collided
function mujocoPairs(filterParent: boolean, exclude: string[][], explicit: string[][]): Set<string> {
  const key = (g: string, h: string) => [g, h].sort().join('|');
  const out = new Set(explicit.map(([g, h]) => key(g, h)));
  const names = Object.keys(GEOMS);
  for (const g of names)
    for (const h of names) {
      if (g >= h) continue;
      const [a, b] = [GEOMS[g], GEOMS[h]];
      if (!(a.contype & b.conaffinity) && !(b.contype & a.conaffinity)) continue;
      if (a.weld === b.weld) continue;
      if (filterParent && a.weld !== 'world' && b.weld !== 'world' && (a.weld === b.weldParent || b.weld === a.weldParent)) continue;
      if (exclude.some(([x, y]) => (x === a.body && y === b.body) || (x === b.body && y === a.body))) continue;
      if (a.plane && b.plane) continue;
      out.add(key(g, h));
    }
  return out;
}

function scenePairs(text: string) {
  const { mechanism, warnings } = mjcfMechanism(parseMjcf(text, 'filter.xml'), { contact: true });
  const scene = ContactScene.of(mechanism);
  const geom = (i: number) => scene.geometries[i].name.split('.').pop()!;
  const pairs = scene.pairs.map(([i, j]) => [geom(i), geom(j)].sort().join('|'));
  return { pairs, scene, warnings, mu: Object.fromEntries(pairs.map((p, k) => [p, scene.materials[k].mu])) };
}

const EXCLUDE = [
  ['A', 'F'],
  ['F', 'B'],
];
const EXPLICIT = [
  ['e2', 'b1'],
  ['a1', 'f1'],
  ['a2', 'e1'],
];

describe('MJCF contact selection as the file says, against an enumeration of MuJoCo’s rule', () => {
  it('masks (geoms and classes), one weld body, parent and child (a body on three hinges too), exclude, explicit pairs', () => {
    const { pairs } = scenePairs(file('', CONTACT));
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(new Set(pairs)).toEqual(mujocoPairs(true, EXCLUDE, EXPLICIT));
    // what the rule decides here, spelled out: B-C across three hinges filtered, A-C (grandparent) not, D welded to C filtered with B
    expect(pairs).not.toContain('b1|c1');
    expect(pairs).toContain('a1|c1');
    expect(pairs).not.toContain('b1|d1');
    expect(pairs).toContain('a1|f1'); // excluded bodies, but an explicit pair
    expect(pairs).not.toContain('b1|f1'); // excluded (and collided without the exclusion: below)
    expect(mujocoPairs(true, [], [])).toContain('b1|f1');
  });

  it('filterparent disabled: parent and child collide, the world still exempt', () => {
    const { pairs } = scenePairs(file('<option><flag filterparent="disable"/></option>', CONTACT));
    expect(new Set(pairs)).toEqual(mujocoPairs(false, EXCLUDE, EXPLICIT));
    expect(pairs).toContain('a1|b1');
    expect(pairs).toContain('b1|c1');
  });

  it('no <contact>: the bitmasks and the body filters alone', () => {
    const { pairs } = scenePairs(file('', ''));
    expect(new Set(pairs)).toEqual(mujocoPairs(true, [], []));
    expect(pairs).not.toContain('b1|e2'); // e2 collides with nothing unless a pair says so
    expect(pairs).toContain('b1|f1');
  });

  it('bodies joined by an <equality> connect are no parent and child: the filter follows the body tree', () => {
    // a four-bar (a parallelogram): P and R hinged to the world, Q hinged to P's top, Q's far end held to R's top by a connect
    const text = `<mujoco model="fourbar">
  <worldbody>
    <geom name="floor" type="plane" size="5 5 .1"/>
    <body name="P" pos="0 0 1">
      <joint type="hinge" axis="0 1 0"/>
      <geom name="p1" type="capsule" fromto="0 0 0 0 0 .5" size=".05"/>
      <body name="Q" pos="0 0 .5">
        <joint type="hinge" axis="0 1 0"/>
        <geom name="q1" type="capsule" fromto="0 0 0 .5 0 0" size=".05"/>
      </body>
    </body>
    <body name="R" pos=".5 0 1">
      <joint type="hinge" axis="0 1 0"/>
      <geom name="r1" type="capsule" fromto="0 0 0 0 0 .5" size=".05"/>
    </body>
  </worldbody>
  <equality><connect body1="Q" body2="R" anchor=".5 0 0"/></equality>
</mujoco>`;
    // MuJoCo's rule over the body tree (every mask 1 / 1): not one body, not a parent and its child, the world exempt
    const body: Record<string, string> = { floor: 'world', p1: 'P', q1: 'Q', r1: 'R' },
      parent: Record<string, string> = { P: 'world', Q: 'P', R: 'world' };
    const want = new Set<string>();
    for (const g of Object.keys(body))
      for (const h of Object.keys(body)) {
        const [a, b] = [body[g], body[h]];
        if (g >= h || a === b || (a !== 'world' && b !== 'world' && (parent[a] === b || parent[b] === a))) continue;
        want.add(`${g}|${h}`);
      }
    const { mechanism } = mjcfMechanism(parseMjcf(text, 'fourbar.xml'), { contact: true });
    const scene = ContactScene.of(mechanism),
      geom = (i: number) => scene.geometries[i].name.split('.').pop()!;
    const pairs = scene.pairs.map(([i, j]) => [geom(i), geom(j)].sort().join('|'));
    expect(new Set(pairs)).toEqual(want);
    expect(pairs).toContain('q1|r1'); // joined by the connect alone: filtered as parent and child before
    expect(pairs).not.toContain('p1|q1');
  });

  it("explicit pairs take their own parameters, the rest the geoms' mix (pair defaults from the class)", () => {
    const { mu } = scenePairs(file('', CONTACT));
    expect(mu['b1|e2']).toBe(0); // condim 1: frictionless
    expect(mu['a1|f1']).toBe(0.4); // <default><pair friction>; condim mixed from the geoms: max(3, 1) = 3
    expect(mu['a2|e1']).toBe(0.3); // its own, not the filtered pair's 1
    expect(mu['a1|b1']).toBeUndefined();
    expect(mu['a1|c1']).toBe(1); // the geoms' friction, condim 3
    expect(mu['f1|floor']).toBe(1); // condim max(1, 3) = 3
  });

  it('an unknown geom in a pair, or body in an exclude, is a ModelError naming it and where it is written', () => {
    const bad = (contact: string) => () => scenePairs(file('', `<contact>${contact}</contact>`));
    expect(bad('<pair geom1="a1" geom2="nope"/>')).toThrow(ModelError);
    expect(bad('<pair geom1="a1" geom2="nope"/>')).toThrow(/filter\.xml:\d+: <pair>: names geom "nope"/);
    expect(bad('<exclude body1="A" body2="Z"/>')).toThrow(/filter\.xml:\d+: <exclude>: names body "Z"/);
    expect(bad('<pair geom1="a1" geom2="f1" condim="2"/>')).toThrow(/condim="2" is not 1, 3, 4 or 6/);
  });
});
