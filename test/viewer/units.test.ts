// Units by the library's names, angle wrapping, and grouping by component
// (viewer/page/units.ts, variables.ts): pure functions, no browser.
import { describe, expect, it } from 'vitest';
import type { Scene } from '../../src/io/types.ts';
import { unitOf, wrapAngle } from '../../viewer/page/units.ts';
import { groupByComponent } from '../../viewer/page/variables.ts';

const scene = {
  joints: [
    { name: 'j1', type: 'revolute' },
    { name: 'j4', type: 'prismatic' },
  ],
} as unknown as Scene;

describe('units', () => {
  it('a joint coordinate is an angle or a length by its joint type; frames, bodies, energy, momentum and free joints by their names', () => {
    const cases: [string, string][] = [
      ['j1.q', 'rad'],
      ['j1.qd', 'rad/s'],
      ['j1.qdd', 'rad/s²'],
      ['j4.q', 'm'],
      ['j4.qd', 'm/s'],
      ['j1.tau', 'N m'],
      ['b3.bar.frame_b.r[2]', 'm'],
      ['j2.frame_b.f[2]', 'N'],
      ['j2.frame_b.t[1]', 'N m'],
      ['b1.frame_a.R[1][2]', '1'],
      ['b1.body.m', 'kg'],
      ['b1.body.I[1][1]', 'kg m²'],
      ['energy.total', 'J'],
      ['s2.foo', ''],
      ['momentum.linear[1]', 'kg m/s'],
      ['momentum.angular[3]', 'kg m²/s'],
      ['com.r[2]', 'm'],
      ['com.v[1]', 'm/s'],
      ['com.m', 'kg'],
      ['base.Q[1]', '1'],
      ['base.r[3]', 'm'],
      ['base.v[1]', 'm/s'],
      ['base.w[2]', 'rad/s'],
      ['base.vd[1]', 'm/s²'],
      ['base.wd[3]', 'rad/s²'],
      ['base.f[1]', 'N'],
      ['base.tau[2]', 'N m'],
    ];
    for (const [name, unit] of cases) expect(unitOf(name, scene), name).toBe(unit);
  });

  it('wraps angles to (-pi, pi]', () => {
    expect(wrapAngle(Math.PI)).toBe(Math.PI);
    expect(wrapAngle(-Math.PI)).toBeCloseTo(Math.PI, 15);
    expect(wrapAngle((3 * Math.PI) / 2)).toBeCloseTo(-Math.PI / 2, 14);
    expect(wrapAngle(80)).toBeCloseTo(80 - 26 * Math.PI, 12);
    expect(wrapAngle(0.3)).toBe(0.3);
  });

  it('groups names by the component before the first dot', () => {
    expect([...groupByComponent(['j1.q', 'b1.body.m', 'der(j1.qd)', 'time2'])]).toEqual([
      ['j1', ['j1.q', 'der(j1.qd)']],
      ['b1', ['b1.body.m']],
      ['(model)', ['time2']],
    ]);
  });
});
