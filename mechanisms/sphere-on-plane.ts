// A solid sphere on a free joint above a ground plane, with compliant
// contact (src/contact): a linear spring-damper normal force and
// regularised Coulomb friction. Started resting on the plane at its static
// penetration m g / k and launched sliding at v0 along x without spin, it
// slides while friction slows it and spins it up, and rolls without
// slipping from t = 2 v0 / (7 mu g) at v = 5 v0 / 7 (test/contact/sphere-on-plane).
// Contact acts in runs given the scene: simulate(compiled, { contact: ContactScene.of(mechanism), ... }).
import { Mechanism } from 'kron';

export const parameters = { m: 1, radius: 0.1, k: 1e6, damping: 2000, mu: 0.3, v0: 2, g: 9.81 };

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  const q = { ...parameters, ...p };
  const mech = new Mechanism('sphere-on-plane', { gravity: [0, -q.g, 0] });
  const rest = q.radius - (q.m * q.g) / q.k;
  const j = mech.free('j', { r: [0, rest, 0], v: [q.v0, 0, 0] });
  const I = (2 / 5) * q.m * q.radius ** 2;
  const ball = mech.body('ball', {
    m: q.m,
    I: [I, I, I],
    geometry: { shape: { type: 'sphere', radius: q.radius }, color: '#e67e22' },
    collision: [{ shape: { type: 'sphere', radius: q.radius }, material: { stiffness: q.k, damping: q.damping, friction: q.mu } }],
  });
  mech.ground();
  mech.connect(mech.world.frame_b, j.frame_a);
  mech.connect(j.frame_b, ball.frame_a);
  return mech;
}
