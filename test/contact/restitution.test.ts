// The linear law's coefficient of restitution, closed form: a sphere thrown
// at the plane in zero gravity (effective mass m, the plane immovable) with
// w0^2 = k/m, b = c/(2m), w = sqrt(w0^2 - b^2) penetrates as
//   delta(t) = (v0 / w) e^(-b t) sin(w t)
// until the force k delta + c delta' reaches zero (the law never pulls), at
//   w t_e = pi - atan(2 b w / (w^2 - b^2)),
// and leaves freely at e v0 with
//   e = e^(-b t_e) |cos(w t_e) - (b / w) sin(w t_e)|
// (Schwager & Poeschel 2007, "Coefficient of restitution and linear-dashpot
// model revisited", Granular Matter 9, eq. 20); the energy the contact took
// is (1 - e^2) m v0^2 / 2, and energy.total - energy.contact_work is kept.
import { describe, expect, it } from 'vitest';
import { ContactScene, Mechanism, compile, simulate } from 'kron';
import { linearRestitution } from './closed-forms.ts';

describe('restitution of the linear law', () => {
  for (const zeta of [0.05, 0.3]) {
    it(`damping ratio ${zeta}: leaves at e v0, e by the closed form, to 1e-6`, () => {
      const m = 2,
        k = 1e5,
        v0 = 1,
        r = 0.1;
      const c = 2 * zeta * Math.sqrt(k * m),
        e = linearRestitution(m, k, c);
      const mech = new Mechanism('throw', { gravity: [0, 0, 0] });
      const j = mech.free('j', { r: [0, r + 0.01, 0], v: [0, -v0, 0] });
      const ball = mech.body('ball', {
        m,
        I: [0.01, 0.01, 0.01],
        collision: [{ shape: { type: 'sphere', radius: r }, material: { stiffness: k, damping: c, friction: 0 } }],
      });
      mech.ground({ normal: [0, 1, 0] });
      (mech.connect(mech.world.frame_b, j.frame_a), mech.connect(j.frame_b, ball.frame_a));
      // error-controlled steps: at the first touch the force jumps by c v0 (the damper), which a fixed step meets to O(h) only
      // (RK4 at 1e-6 s: 2e-5 off at zeta 0.3); events at make and break are not built yet
      const res = simulate(compile(mech), {
        stop: 0.05,
        step: 1e-6,
        interval: 0.001,
        integrator: 'adaptive',
        rtol: 1e-11,
        atol: 1e-13,
        contact: ContactScene.of(mech),
        signals: ['j.v[2]', 'energy.total', 'energy.contact_work'],
      });
      expect(Math.abs(res.final('j.v[2]') / (e * v0) - 1)).toBeLessThan(1e-6);
      // energy.contact_work: the contact's work on the ball, -(1 - e^2) m v0^2 / 2 once it has left; total - work kept throughout
      const E0 = 0.5 * m * v0 * v0;
      expect(Math.abs(res.final('energy.contact_work') / (-(1 - e * e) * E0) - 1)).toBeLessThan(1e-6);
      const total = res.get('energy.total'),
        work = res.get('energy.contact_work');
      for (let i = 0; i < total.length; i++) expect(Math.abs(total[i] - work[i] - E0)).toBeLessThan(1e-8 * E0);
      // and it is not the unclipped spring-damper's exp(-zeta pi / sqrt(1 - zeta^2)): the law leaves earlier
      expect(Math.abs(e / Math.exp((-zeta * Math.PI) / Math.sqrt(1 - zeta * zeta)) - 1)).toBeGreaterThan(1e-3);
    });
  }
});
