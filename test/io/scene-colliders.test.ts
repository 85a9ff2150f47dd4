// The collision geometry a run's scene carries for the viewer's collision
// toggle (src/io/scene-colliders.ts): each body's colliders on its frame_a's
// pose set with their pose, a convex shape by its hull's corners only, and
// the ground plane as the scene's floor, its normal the one the ground was
// given (not a grid guessed below the mechanism).
import { describe, expect, it } from 'vitest';
import sphereOnPlane from '../../mechanisms/sphere-on-plane.ts';
import doublependulum from '../../mechanisms/doublependulum.ts';
import { Mechanism } from '../../src/library/multibody/index.ts';
import { describeScene } from '../../src/io/scene.ts';
import type { Model } from '../../src/model/index.ts';

const scene = (m: Model) => describeScene(m, () => 1, [0, -9.81, 0]);
const setOf = (s: ReturnType<typeof scene>, frame: string) => s.frames.findIndex((f) => f.members.includes(frame));

describe('scene colliders', () => {
  it('the sphere on the plane: its ball collider on the ball frame, and the ground plane as the floor, normal up (against gravity -y)', () => {
    const s = scene(sphereOnPlane());
    expect(s.colliders).toEqual([{ name: 'ball.collision1', frame: setOf(s, 'ball.frame_a'), shape: { type: 'sphere', radius: 0.1 } }]);
    expect(s.floor!.point).toEqual([0, 0, 0]);
    s.floor!.normal.forEach((v, i) => expect(v).toBeCloseTo([0, 1, 0][i], 15));
  });

  it('a tilted ground through a point: the floor has that point and the normal given; a convex collider keeps its hull corners and its pose', () => {
    const m = new Mechanism('tilted', { gravity: [0, 0, -9.81] });
    const n = [0, 1, 2].map((v) => v / Math.sqrt(5));
    m.ground({ normal: [0, 1, 2], point: [0.5, 0, -1] });
    const cube = [-1, 1].flatMap((x) => [-1, 1].flatMap((y) => [-1, 1].flatMap((z) => [x * 0.1, y * 0.2, z * 0.3])));
    // the centre and a point inside a face's interior never touch: the hull drops them
    const vertices = [...cube, 0, 0, 0, 0, 0, 0.3];
    const j = m.free('j');
    const block = m.body('block', {
      m: 1,
      I: [1, 1, 1],
      collision: [{ name: 'hull', shape: { type: 'convex', vertices }, offset: [0, 0, 0.05], orientation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] }],
    });
    m.connect(m.world.frame_b, j.frame_a);
    m.connect(j.frame_b, block.frame_a);
    const s = scene(m);
    expect(s.floor!.point).toEqual([0.5, 0, -1]);
    s.floor!.normal.forEach((v, i) => expect(v).toBeCloseTo(n[i], 15));
    const [c] = s.colliders!;
    expect(c).toMatchObject({ name: 'block.hull', frame: setOf(s, 'block.frame_a'), offset: [0, 0, 0.05], orientation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] });
    if (c.shape.type !== 'convex') throw new Error('not convex');
    const points = (v: readonly number[]) =>
      Array.from({ length: v.length / 3 }, (_, i) => v.slice(3 * i, 3 * i + 3).join(' '))
        .sort()
        .join(', ');
    expect(points(c.shape.vertices)).toBe(points(cube));
  });

  it('a mechanism without collision geometry: no colliders, no floor (the viewer lays its grid below the mechanism)', () => {
    const s = scene(doublependulum());
    expect(s.colliders).toBeUndefined();
    expect(s.floor).toBeUndefined();
  });
});
