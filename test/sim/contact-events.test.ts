// Contacts that make and break as events (simulate's contactEvents,
// src/sim/contact-events.ts): a sphere thrown at the plane in zero gravity
// touches at t = gap / v0 exactly (it flies straight), located there to the
// event tolerance; it leaves at the law's restitution e v0 (Schwager &
// Poeschel's closed form, test/contact/closed-forms.ts) and separates once;
// and the option is refused without contact.
import { describe, expect, it } from 'vitest';
import { ContactScene, Mechanism, compile, simulate } from 'kron';
import { UsageError } from '../../src/errors.ts';
import { withEventSource } from '../../src/sim/events.ts';
import { contactEventSource } from '../../src/sim/contact-events.ts';
import { STEPPERS } from '../../src/sim/steppers/index.ts';
import { linearRestitution } from '../contact/closed-forms.ts';

const m = 2,
  k = 1e5,
  v0 = 1,
  r = 0.1,
  gap = 0.01,
  c = 2 * 0.3 * Math.sqrt(k * m);

function thrown() {
  const mech = new Mechanism('throw', { gravity: [0, 0, 0] });
  const j = mech.free('j', { r: [0, r + gap, 0], v: [0, -v0, 0] });
  const ball = mech.body('ball', {
    m,
    I: [0.01, 0.01, 0.01],
    collision: [{ shape: { type: 'sphere', radius: r }, material: { stiffness: k, damping: c, friction: 0 } }],
  });
  mech.ground({ normal: [0, 1, 0] });
  (mech.connect(mech.world.frame_b, j.frame_a), mech.connect(j.frame_b, ball.frame_a));
  return { mech, compiled: compile(mech), contact: ContactScene.of(mech) };
}

describe('contact make and break as events', () => {
  it('a thrown sphere: touches at gap / v0 (1e-12), leaves at e v0 (1e-6), two events', () => {
    const { compiled, contact } = thrown();
    const res = simulate(compiled, {
      stop: 0.05,
      interval: 0.05,
      integrator: 'radau',
      rtol: 1e-8,
      atol: 1e-10,
      contact,
      contactEvents: true,
      signals: ['j.v[2]'],
    });
    expect(Math.abs(res.final('j.v[2]') / (linearRestitution(m, k, c) * v0) - 1)).toBeLessThan(1e-6);
    expect(res.events).toEqual([{ name: 'contact.world.ground__ball.collision1', count: 2 }]);
    // the first event's time, from a stepper with the source alone
    const state = compiled.createState();
    const deriv = (dx: Float64Array, x: Float64Array, t: number) => state.derivatives(t, x, dx);
    const settings = { step: 1e-3, stop: 0.05, rtol: 1e-8, atol: 1e-10, maxSteps: 1e5 };
    const stepper = withEventSource(
      contactEventSource(contact, compiled.createState()),
      deriv,
      (x0, t0) => STEPPERS.adaptive(x0, deriv, t0, settings),
      state.x0(),
    );
    while (!stepper.last) stepper.step(0.05);
    expect(Math.abs(stepper.last.t - gap / v0)).toBeLessThan(1e-12);
  });

  it('asked for without contact: a UsageError', () => {
    const { compiled } = thrown();
    expect(() => simulate(compiled, { stop: 0.01, contactEvents: true })).toThrow(UsageError);
  });
});
