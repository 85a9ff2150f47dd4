// The step that makes a contact (sim/steppers/rk4.ts): a sphere dropped
// from 1 m onto the ground with a heavily damped Hunt-Crossley law (alpha =
// 20 s/m: it stops dead) under the default integrator. RK4's step of 1e-3 s
// is unstable in the contact; checked only at the start of the step after
// the touch, one RK4 step ran through the impact and the contact's work was
// off by 2.6 J of the 9.9 J (energy.total - contact_work rose by that much);
// checked at the end of the step that made the contact, that step is not
// taken and radau goes on from its start. The oracle: total - contact_work
// never rises (the contact's dampers and friction only take energy).
import { describe, expect, it } from 'vitest';
import { ContactScene, Mechanism, compile, simulate } from 'kron';

describe('the step that makes a contact', () => {
  it('a dead-stop Hunt-Crossley impact: energy.total - contact_work never above its start (1e-6 of it), radau from the touch', () => {
    const k = 1e6,
      alpha = 20;
    const mech = new Mechanism('drop', { gravity: [0, -9.81, 0] });
    const j = mech.free('j', { r: [0, 1, 0], v: [0.5, 0, 0] });
    const ball = mech.body('ball', {
      m: 1,
      I: [0.004, 0.004, 0.004],
      collision: [{ shape: { type: 'sphere', radius: 0.1 }, material: { law: 'hunt-crossley', stiffness: k, damping: 1.5 * alpha * k, friction: 0.5 } }],
    });
    mech.ground();
    (mech.connect(mech.world.frame_b, j.frame_a), mech.connect(j.frame_b, ball.frame_a));
    const res = simulate(compile(mech), {
      stop: 0.6,
      interval: 0.005,
      contact: ContactScene.of(mech, { slipSpeed: 1e-2 }),
      signals: ['energy.total', 'energy.contact_work'],
    });
    const e = res.get('energy.total'),
      w = res.get('energy.contact_work');
    for (let i = 0; i < e.length; i++) expect(e[i] - w[i] - e[0]).toBeLessThan(1e-6 * e[0]);
    // the touch: the sphere falls 0.9 m in sqrt(1.8 / 9.81) = 0.428 s
    expect(res.integration!.switched!.time).toBeCloseTo(0.428, 2);
  });
});
