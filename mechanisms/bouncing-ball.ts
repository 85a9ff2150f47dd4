// A bouncing ball: a point mass on a vertical prismatic joint (j.q the
// height, along +y against gravity g), dropped from h0 onto a floor at q = 0
// that is a hard joint limit (limitKind 'impact', JointOptions): every
// impact reverses the speed, qd := -e qd. Closed form (test/sim/events):
// the first impact at t0 = sqrt(2 h0 / g) with speed v0 = g t0; bounce k
// leaves at speed e^k v0, rises to e^(2k) h0 and lasts 2 e^k t0, so the
// bounces accumulate at t0 (1 + e) / (1 - e) (4.06 s for e = 0.8 from 1 m);
// impacts slower than restVelocity (1e-3 m/s) stop the ball on the floor.
import { Mechanism } from 'kron';

export const parameters = { m: 1, h0: 1, e: 0.8, g: 9.81, restVelocity: 1e-3 };

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  const q = { ...parameters, ...p };
  const mech = new Mechanism('bouncing-ball', { gravity: [0, -q.g, 0] });
  const j = mech.prismatic('j', { axis: [0, 1, 0], q: q.h0, qd: 0, limits: [0, 1e3], limitKind: 'impact', restitution: q.e, restVelocity: q.restVelocity });
  const ball = mech.body('ball', { m: q.m, rcm: [0, 0, 0], I: [0, 0, 0], geometry: { shape: { type: 'sphere', radius: 0.05 }, color: '#e67e22' } });
  mech.connect(mech.world.frame_b, j.frame_a);
  mech.connect(j.frame_b, ball.frame_a);
  return mech;
}
