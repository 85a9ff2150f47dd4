// Scenes and fits the friction tests share (box-on-plane, sphere-on-plane,
// elasto-plastic): a box resting on an inclined plane, and the time a
// sphere launched sliding starts to roll, fitted from its slip.
import { ContactScene, Mechanism } from 'kron';
import type { ContactOptions } from '../../src/contact/scene.ts';

export const g = 9.81,
  boxMass = 2,
  boxSize = [0.4, 0.2, 0.3] as const,
  boxStiffness = 1e5;

/**
 * The box on a free joint, its bottom face on the plane through the origin with normal
 * (-sin th, cos th, 0), sunk by its static penetration; launched down the slope at v0.
 * `down` is the unit vector down the slope.
 */
export function boxOn(th: number, mu: number, v0: number, options: ContactOptions) {
  const m = boxMass,
    k = boxStiffness,
    size = boxSize;
  const mech = new Mechanism('box', { gravity: [0, -g, 0] });
  const n = [-Math.sin(th), Math.cos(th), 0] as const,
    down = [-Math.cos(th), -Math.sin(th), 0];
  const h = size[1] / 2 - (m * g * Math.cos(th)) / (4 * k);
  const j = mech.free('j', { r: [h * n[0], h * n[1], 0], Q: [Math.cos(th / 2), 0, 0, Math.sin(th / 2)], v: down.map((d) => v0 * d) });
  const I = (a: number, b: number) => (m * (a * a + b * b)) / 12;
  const box = mech.body('box', {
    m,
    I: [I(size[1], size[2]), I(size[0], size[2]), I(size[0], size[1])],
    collision: [{ shape: { type: 'box', size: [...size] }, material: { stiffness: k, damping: 2 * Math.sqrt((k * m) / 4), friction: mu } }],
  });
  mech.ground({ normal: n });
  (mech.connect(mech.world.frame_b, j.frame_a), mech.connect(j.frame_b, box.frame_a));
  return { mech, down, scene: ContactScene.of(mech, options) };
}

/**
 * A sphere launched sliding: while it slides its slip falls linearly at 3.5 mu g. The line
 * fitted by least squares over the samples with slip above 0.1 v0 (well above any
 * regularisation speed) gives its rate and its zero, the time t* it starts to roll.
 */
export function rollingFit(t: readonly number[], slip: readonly number[], v0: number): { tStar: number; rate: number } {
  const sliding = t.map((ti, i) => [ti, slip[i]]).filter(([, s]) => s > 0.1 * v0);
  const n = sliding.length,
    mt = sliding.reduce((a, [ti]) => a + ti, 0) / n,
    ms = sliding.reduce((a, [, s]) => a + s, 0) / n;
  const rate = sliding.reduce((a, [ti, s]) => a + (ti - mt) * (s - ms), 0) / sliding.reduce((a, [ti]) => a + (ti - mt) ** 2, 0);
  return { tStar: mt - ms / rate, rate };
}
