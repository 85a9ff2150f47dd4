// Relaxing paper, sections 3 and 10: the drive train's 4-equation linear loop
// (eq. 3) torn by ShaftS's residue(a) to one unknown, giving eq. 5.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import build, { parameters } from '../../mechanisms/drivetrain.ts';
import { driveTrainAcceleration, driveTrainEq3 } from '../oracles/closed-forms.ts';

const close = (got: number, want: number, tol: number) => expect(Math.abs(got - want)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(want)));

describe('drive train (relaxing paper fig. 1, eqs. 3-5)', () => {
  it('sorts into one linear loop of 4 equations, torn to 1 tearing variable', () => {
    const { report } = compile(build(), { mode: 'torn' });
    expect(report.blocks.map(({ size, tearing, linear }) => ({ size, tearing, linear }))).toEqual([{ size: 4, tearing: 1, linear: true }]);
    expect(report.blocks[0].tearVariables).toEqual(['der(s2.w)']);
    expect(report.blocks[0].tearingFrom).toBe('hints');
    expect(report.states).toBe(1);
  });

  it.each([parameters, { J1: 0.3, J2: 5, i: 0.25, tau: -2, w0: 1 }, { J1: 2, J2: 1e-3, i: 12, tau: 7, w0: 0 }])(
    'der(s2.w) is eq. 5 and the loop variables solve eq. 3 (%o)',
    (p) => {
      const c = compile(build(p), { mode: 'torn' });
      const dx = new Float64Array(1);
      c.derivatives(0, c.x0(), dx);
      close(dx[0], driveTrainAcceleration(p.J1, p.J2, p.i, p.tau), 1e-12);
      const [alpha1, alpha2, tau1, tau2] = driveTrainEq3(p.J1, p.J2, p.i, p.tau);
      close(c.signal('s1.a'), alpha1, 1e-12);
      close(c.signal('der(s2.w)'), alpha2, 1e-12);
      close(c.signal('s1.tr'), tau1, 1e-12);
      close(c.signal('s2.tl'), tau2, 1e-12);
    },
  );

  it('simulates constant acceleration from the start value for 1 s', () => {
    const p = { ...parameters, w0: 0.5 };
    const c = compile(build(p), { mode: 'torn' });
    const r = simulate(c, { stop: 1, step: 1e-3, signals: ['s2.w', 's1.w'] });
    const a = driveTrainAcceleration(p.J1, p.J2, p.i, p.tau);
    expect(r.time.length).toBe(1001);
    r.time.forEach((t, k) => {
      close(r.get('s2.w')[k], p.w0 + a * t, 1e-9);
      close(r.get('s1.w')[k], p.i * (p.w0 + a * t), 1e-9);
    });
  });
});
