// The viewer's live run (viewer/page/realtime.ts) integrates with simulate()'s
// RK4 stepper; like simulate() it stops, with the same typed error, where its
// step is beyond RK4's stability region for a mode of the model (issue 30),
// instead of playing a stiff model's bounded, wrong oscillation, and it stops
// at a model's events (a bouncing ball stays above its floor). Node only: the
// page shows the message in its live panel's note (realtime-panel.ts).
import { describe, expect, it } from 'vitest';
import { SimulationError, compile, simulate } from '../../src/api.ts';
import { RealTimeRun } from '../../viewer/page/realtime.ts';
import arm from '../sim/fixtures/arm3.ts';
import pendulum from '../../mechanisms/pendulum.ts';
import ball from '../../mechanisms/bouncing-ball.ts';

describe("the live run checks RK4's stability as simulate() does", () => {
  it("the stiff PD arm stops at t = 0 with simulate()'s message", () => {
    const compiled = compile(arm());
    const expected = (() => {
      try {
        simulate(compiled, { stop: 1, step: 1e-3, integrator: 'rk4' });
      } catch (e) {
        return e as SimulationError;
      }
      throw new Error('simulate() ran');
    })();
    const live = new RealTimeRun(compiled, undefined);
    expect(() => live.advanceTo(0.1)).toThrow(SimulationError);
    expect(() => new RealTimeRun(compiled, undefined).advanceTo(0.1)).toThrow(expected.message);
    expect(live.time).toBe(0);
  });

  it("a pendulum runs on, through the checks every 1000 steps, to simulate()'s states", () => {
    const compiled = compile(pendulum());
    const live = new RealTimeRun(compiled, undefined);
    live.advanceTo(1.2);
    const r = simulate(compiled, { stop: 1.2, step: 1e-3 });
    const states = live.states();
    // (to rounding: simulate()'s last step is stop - t, 1 ulp off the step)
    for (const name of compiled.stateNames) expect(states[name]).toBeCloseTo(r.get(name).at(-1)!, 12);
  });
});

describe('the live run stops at events as simulate() does', () => {
  it('the bouncing ball bounces on its floor (e = 0.8), in the steps and states of simulate() with RK4', () => {
    const compiled = compile(ball());
    const live = new RealTimeRun(compiled, undefined);
    // in pieces, as the page's frames advance it: 1.5 s, past the first two impacts (0.4515 s, 1.1739 s)
    for (let t = 0.0167; t < 1.5; t += 0.0167) live.advanceTo(t);
    live.advanceTo(1.5);
    const r = simulate(compiled, { stop: 1.5, step: 1e-3, integrator: 'rk4' });
    expect(r.events!.find((e) => e.name === 'j.limit_lower')!.count).toBe(2);
    expect(live.time).toBe(1.5);
    // never below the floor by more than the event location's rounding, and the state of simulate() to rounding
    const states = live.states();
    expect(states['j.q']).toBeGreaterThan(0);
    for (const name of compiled.stateNames) expect(states[name]).toBeCloseTo(r.get(name).at(-1)!, 12);
  });
});
