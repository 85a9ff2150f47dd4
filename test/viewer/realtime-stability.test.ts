// The viewer's live run (viewer/page/realtime.ts) integrates with its own RK4
// loop; like simulate() it stops, with the same typed error, where its step is
// beyond RK4's stability region for a mode of the model (issue 30), instead
// of playing a stiff model's bounded, wrong oscillation. Node only: the page
// shows the message in its live panel's note (realtime-panel.ts).
import { describe, expect, it } from 'vitest';
import { SimulationError, compile, simulate } from '../../src/api.ts';
import { RealTimeRun } from '../../viewer/page/realtime.ts';
import arm from '../sim/fixtures/arm3.ts';
import pendulum from '../../mechanisms/pendulum.ts';

describe('the live run checks RK4\'s stability as simulate() does', () => {
  it('the stiff PD arm stops at t = 0 with simulate()\'s message', () => {
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

  it('a pendulum runs on, through the checks every 1000 steps, to simulate()\'s states', () => {
    const compiled = compile(pendulum());
    const live = new RealTimeRun(compiled, undefined);
    live.advanceTo(1.2);
    const r = simulate(compiled, { stop: 1.2, step: 1e-3 });
    const states = live.states();
    // (to rounding: simulate()'s last step is stop - t, 1 ulp off the step)
    for (const name of compiled.stateNames) expect(states[name]).toBeCloseTo(r.get(name).at(-1)!, 12);
  });
});
