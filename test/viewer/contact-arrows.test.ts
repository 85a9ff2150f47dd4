// The contact arrows' scale (viewer/page/contact-arrows.ts), in node: a run
// whose pair rests at 10 N but for one 1000 N impact sample. Scaled by the
// largest force the resting arrow would be 1/100 of a quarter of the size;
// scaled by the 90th percentile of the forces that push, it is a quarter of
// the size, and the impact's arrow is capped at twice that. The percentile
// is counted here by hand from the samples.
import { describe, expect, it } from 'vitest';
import { ContactArrows } from '../../viewer/page/contact-arrows.ts';

const SIZE = 2;

/** a pair along +y at the origin with these |f| per sample */
function run(forces: number[][]): { signals: Record<string, number[]>; time: number[] } {
  const signals: Record<string, number[]> = {};
  forces.forEach((f, i) => {
    const pair = `contact.world.ground__b${i}.c`;
    Object.assign(signals, {
      [`${pair}.p[1]`]: f.map(() => i),
      [`${pair}.p[2]`]: f.map(() => 0),
      [`${pair}.p[3]`]: f.map(() => 0),
      [`${pair}.f[1]`]: f.map(() => 0),
      [`${pair}.f[2]`]: f,
      [`${pair}.f[3]`]: f.map(() => 0),
    });
  });
  return { signals, time: forces[0].map((_, k) => k * 0.01) };
}

const length = (a: { from: number[]; to: number[] }) => Math.hypot(...a.to.map((x, i) => x - a.from[i]));

describe('contact arrows: a typical force draws a quarter of the size, an impact is capped', () => {
  // pair 0: free fall (0), one impact sample (1000 N), then resting at 10 N; pair 1: 4 N from the middle on
  const resting = [0, 0, 1000, ...Array(17).fill(10)];
  const other = [...Array(10).fill(0), ...Array(10).fill(4)];
  const { signals, time } = run([resting, other]);
  const arrows = new ContactArrows(signals, time, SIZE);

  it('the 90th percentile of the nonzero forces sets the scale', () => {
    // nonzero: 1000, 17 x 10, 10 x 4 = 28 samples; sorted, the ceil(0.9 * 28) = 26th is a 10
    const state = arrows.state();
    expect(state).toMatchObject({ count: 2, largest: 1000, typical: 10, longest: SIZE / 2 });
    expect(state.scale).toBeCloseTo(SIZE / 4 / 10, 15);
  });

  it('a resting arrow is a quarter of the size, the impact is capped at half, a pair that does not push is hidden', () => {
    arrows.setTime(time[10]);
    const [a, b] = arrows.state().arrows;
    expect(length(a)).toBeCloseTo(SIZE / 4, 12);
    expect(length(b)).toBeCloseTo((SIZE / 4) * 0.4, 12);
    arrows.setTime(time[2]);
    const [impact, none] = arrows.state().arrows;
    expect(length(impact)).toBeCloseTo(SIZE / 2, 12);
    expect(impact.to[1]).toBeGreaterThan(impact.from[1]);
    expect(none.shown).toBe(false);
  });

  it('the overlay and the title say the scale and the cap', () => {
    expect(arrows.scaleText()).toBe('10.0 N per 0.500 m, capped at 20.0 N (largest 1.00e+3 N)');
    expect(arrows.describe()).toMatch(
      /10\.0 N, a typical force of the run .* draws 0\.500 m long, and no arrow is longer than 1\.00 m \(the largest force is 1\.00e\+3 N\)$/,
    );
  });

  it('a run at one force draws it a quarter of the size, uncapped', () => {
    const even = run([Array(5).fill(9.81)]);
    const one = new ContactArrows(even.signals, even.time, SIZE);
    expect(one.state()).toMatchObject({ largest: 9.81, typical: 9.81 });
    expect(one.scaleText()).toBe('9.81 N per 0.500 m');
  });
});
