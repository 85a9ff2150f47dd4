// The scene a result carries: pose sets from connections, shapes, rods and
// joint axes, checked against the mechanisms' drawings.
import { describe, expect, it } from 'vitest';
import doublependulum from '../../mechanisms/doublependulum.ts';
import chain from '../../mechanisms/chain.ts';
import puma560, { links as pumaLinks } from '../../mechanisms/puma560.ts';
import { LINK_RADIUS, describeScene } from '../../src/io/scene.ts';
import { inertiaBox } from '../../src/io/inertia-box.ts';
import { Model, type Variable } from '../../src/model/index.ts';
import type { Component } from '../../src/model/index.ts';

/** declared parameter values by hierarchical name (what compiled.signal reads for folded parameters) */
function declared(model: Model): (name: string) => number {
  const values = new Map<string, number>();
  const visit = (c: Component) => {
    c.variables.forEach((v: Variable) => v.kind === 'parameter' && values.set(v.name, v.value!));
    c.children.forEach(visit);
  };
  visit(model);
  return (name) => {
    if (!values.has(name)) throw new Error(`no parameter ${name}`);
    return values.get(name)!;
  };
}

const scene = (m: Model) => describeScene(m, declared(m), [0, -9.80665, 0]);

describe('describeScene', () => {
  it('double pendulum: connected frames share a pose; two link shapes, one bar rod, two z joints', () => {
    const s = scene(doublependulum());
    expect(s.frames.map((f) => f.members)).toEqual([
      ['world.frame_b', 'j1.frame_a'],
      ['j1.frame_b', 'link1.frame_a', 'bar1.frame_a'],
      ['bar1.frame_b', 'j2.frame_a'],
      ['j2.frame_b', 'link2.frame_a'],
    ]);
    expect(s.world).toBe(0);
    expect(s.shapes.map((x) => [x.name, x.kind, x.frame, x.geometry.shape.type])).toEqual([
      ['link1', 'body', 1, 'cylinder'],
      ['link2', 'body', 3, 'cylinder'],
    ]);
    expect(s.links).toEqual([expect.objectContaining({ name: 'bar1', from: 1, to: 2 })]);
    expect(s.joints).toEqual([
      { name: 'j1', type: 'revolute', frame: 0, axis: [0, 0, 1] },
      { name: 'j2', type: 'revolute', frame: 2, axis: [0, 0, 1] },
    ]);
  });

  it('chain of n: 2n + 1 pose sets (the last bar end stands alone), n rods, axes alternating z and y', () => {
    const n = 5;
    const s = scene(chain({ n }));
    expect(s.frames).toHaveLength(2 * n + 1);
    expect(s.frames.at(-1)!.members).toEqual([`bar${n}.frame_b`]);
    expect(s.links.map((l) => l.name)).toEqual([1, 2, 3, 4, 5].map((k) => `bar${k}`));
    expect(s.joints.map((j) => j.axis)).toEqual([1, 2, 3, 4, 5].map((k) => (k % 2 ? [0, 0, 1] : [0, 1, 0])));
  });

  it('bodies without geometry become their equivalent inertia box at the centre of mass; a massless one a small sphere', () => {
    const s = scene(puma560());
    const drawn = s.shapes.filter((x) => x.kind === 'body');
    const bodies = drawn.filter((x) => x.geometry.shape.type !== 'cylinder');
    expect(bodies).toHaveLength(6);
    bodies.forEach((b, i) => {
      const { m, r, I } = pumaLinks[i];
      expect(b.geometry.offset).toEqual([...r]);
      if (m === 0) return expect(b.geometry.shape).toEqual({ type: 'sphere', radius: 0.015 });
      const box = inertiaBox(m, [
        [I[0], 0, 0],
        [0, I[1], 0],
        [0, 0, I[2]],
      ])!;
      expect(b.geometry.shape).toEqual({ type: 'box', size: box.size });
      expect(b.geometry.orientation).toEqual(box.orientation);
    });
    // a centre of mass away from frame_a hangs on a rod from frame_a (the joint) to it: the box does not float beside its joint
    const rods = drawn.filter((x) => x.geometry.shape.type === 'cylinder');
    const away = pumaLinks.filter(({ r }) => Math.hypot(...r) > 2 * LINK_RADIUS);
    expect(away.length).toBeGreaterThan(2);
    expect(rods).toHaveLength(away.length);
    rods.forEach((rod, k) => {
      const r = away[k].r,
        length = Math.hypot(...r);
      const { shape, offset, axis } = rod.geometry;
      expect(shape).toEqual({ type: 'cylinder', radius: LINK_RADIUS, length });
      // its two ends: frame_a's origin and the centre of mass
      [-1, 1].forEach((end, e) => offset!.forEach((o, i) => expect(o + (end * axis![i] * length) / 2).toBeCloseTo(e ? r[i] : 0, 14)));
    });
    // link 2 (the upper arm): its box is longest along x, the arm's direction in frame 2
    const size = bodies[1].geometry.shape.type === 'box' ? bodies[1].geometry.shape.size : [];
    expect(size[0]).toBeCloseTo(Math.sqrt((6 * (0.524 + 0.539 - 0.13)) / 17.4), 12);
    // the DH rotations carry the arm's offsets: drawn as rods between their frames
    expect(s.links.map((l) => l.name)).toEqual(['dh1', 'dh2', 'dh3', 'dh4', 'dh5', 'dh6']);
    // every parameter, for the viewer's model tree
    expect(s.parameters!['link2.m']).toBe(17.4);
    expect(s.parameters!['link2.I[2][2]']).toBe(0.524);
  });

  it('a model without a world has world = -1 and nothing to draw', () => {
    const s = scene(new Model('empty'));
    expect(s).toMatchObject({ world: -1, frames: [], shapes: [], links: [], joints: [], parameters: {} });
  });
});
