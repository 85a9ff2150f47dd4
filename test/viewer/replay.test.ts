// The viewer's replay (viewer/page/replay.ts) in node: every signal computed
// from the recorded states through the compiled model equals the signal
// simulate() records in the same run; a run of other parameters is refused
// with the reason (from a recorded sample, one interval of the run's RK4
// steps does not reach the next: the equations differ).
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { simulatePlayback } from '../../src/io/playback.ts';
import type { PlaybackRun } from '../../src/io/types.ts';
import type { Model } from '../../src/model/index.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { SignalReplay } from '../../viewer/page/replay.ts';
import fourbar from '../../mechanisms/fourbar.ts';

const options = { stop: 1, step: 1e-3, interval: 0.01 };

/** a JSON run of the four-bar with these module parameters, recording the states */
function run(parameters: Record<string, number>): PlaybackRun {
  const model = fourbar(parameters) as Model;
  const compiled = compile(model, { mode: 'torn' });
  const { result, playback } = simulatePlayback(model, compiled, options);
  return { model: 'fourbar', ...result.toJSON(), ...playback };
}

describe('replaying a run through the compiled model', () => {
  const compiled = compile(fourbar({}) as Model, { mode: 'torn' });

  it('computes signals the run did not record, equal to simulate() recording them (the loop solved at each sample)', () => {
    const names = ['j2.frame_b.f[2]', 'b3.bar.frame_b.r[2]', 'j4.q', 'energy.total', 'j1.qdd'];
    const reference = simulate(compiled, { ...options, signals: names });
    const replay = SignalReplay.of(compiled, run({}));
    if (typeof replay === 'string') throw new Error(replay);
    replay.columnsOf(names).forEach((column, i) => {
      const expected = reference.get(names[i]);
      const scale = Math.max(1, ...Array.from(expected, Math.abs));
      const worst = Math.max(...Array.from(column, (v, k) => Math.abs(v - expected[k])));
      expect(worst / scale, names[i]).toBeLessThan(1e-10);
    });
  });

  it('refuses a run of other parameters: thicker bars move otherwise, a tilted guide poses otherwise', () => {
    // (density alone would not do: scaling every mass leaves the motion under gravity as it is)
    expect(SignalReplay.of(compiled, run({ diameter: 0.051 }))).toMatch(/does not reproduce this run's motion/);
    expect(SignalReplay.of(compiled, run({ tilt: 0.3 }))).toMatch(/does not reproduce this run's pose/);
    expect(SignalReplay.of(compiled, run({ phi0: 0.3 }))).toBeInstanceOf(SignalReplay); // a start value: the same equations
    const states = run({});
    delete states.signals['j1.qd'];
    expect(SignalReplay.of(compiled, states)).toMatch(/did not record the state j1.qd/);
  });
});
