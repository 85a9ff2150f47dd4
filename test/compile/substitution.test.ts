// Successive substitution on torn nonlinear loops (compile option
// tornSubstitution, codegen/substitution.ts), against Newton on the same
// loop and against the loop's own equations: a weakly coupled loop converges
// by substitution alone, a strongly coupled one falls back to Newton every
// time (and says so), kinematic closures keep Newton, and the answers are
// Newton's either way.
import { describe, expect, it } from 'vitest';
import fourbar from '../../mechanisms/fourbar.ts';
import { Model, UsageError, add, compile, der, mul, residue, sin, cos, simulate, sub } from '../../src/index.ts';

/** x = a sin(y) + s, y = a cos(x) + 1 torn on x and y; der(s) = x - y */
function loop(a: number) {
  const m = new Model('coupled');
  const s = m.variable('s', { start: 0.2 });
  const x = m.variable('x', { start: 0 }),
    y = m.variable('y', { start: 0 });
  m.equation(der(s), sub(x, y));
  m.equation(add(x, residue(x)), add(mul(a, sin(y)), s));
  m.equation(add(y, residue(y)), add(mul(a, cos(x)), 1));
  return m;
}

const run = (c: ReturnType<typeof compile>) => simulate(c, { stop: 1, step: 1e-2, signals: ['s', 'x', 'y'] });

describe('successive substitution on torn nonlinear loops', () => {
  it('weak coupling (a = 0.3): converges by substitution alone, the same answer as Newton, the equations hold', () => {
    const newton = compile(loop(0.3)),
      substituted = compile(loop(0.3), { tornSubstitution: true });
    expect(substituted.report.blocks).toHaveLength(1);
    expect(substituted.report.blocks[0]).toMatchObject({ solver: 'newton', tearing: 2, iteration: 'substitution' });
    expect(newton.report.blocks[0].iteration).toBeUndefined();
    const a = run(newton),
      b = run(substituted);
    for (const name of ['s', 'x', 'y'] as const) {
      b.get(name).forEach((v, k) => expect(Math.abs(v - a.get(name)[k])).toBeLessThan(1e-10));
    }
    // the loop's own equations at the last sample
    const [s, x, y] = (['s', 'x', 'y'] as const).map((n) => b.final(n));
    expect(Math.abs(x - 0.3 * Math.sin(y) - s)).toBeLessThan(1e-11);
    expect(Math.abs(y - 0.3 * Math.cos(x) - 1)).toBeLessThan(1e-11);
    const [stats] = b.substitutions!;
    expect(stats).toMatchObject({ evaluations: 501, fallbacks: 0 }); // 100 RK4 steps of 4, and the 101 samples (x and y are not states)
    expect(stats.meanSweeps).toBeGreaterThan(2); // a contraction of ~0.3 per sweep from the last step's solution
    expect(stats.maxSweeps).toBeLessThanOrEqual(50);
  });

  it('strong coupling (a = 2): the substitution diverges, Newton finishes every evaluation, the same answer', () => {
    const newton = compile(loop(2)),
      substituted = compile(loop(2), { tornSubstitution: { maxSweeps: 30 } });
    const a = run(newton),
      b = run(substituted);
    for (const name of ['s', 'x', 'y'] as const) {
      b.get(name).forEach((v, k) => expect(Math.abs(v - a.get(name)[k])).toBeLessThan(1e-10));
    }
    const [stats] = b.substitutions!;
    expect(stats.fallbacks).toBeGreaterThan(0);
    expect(stats.fallbacks).toBeLessThanOrEqual(stats.evaluations);
  });

  it("a kinematic loop keeps Newton (its dead-point and branch tests are Newton's): the same trajectory bit for bit", () => {
    const plain = compile(fourbar({}), { mode: 'torn' }),
      option = compile(fourbar({}), { mode: 'torn', tornSubstitution: true });
    expect(option.report.blocks.filter((b) => b.solver === 'newton').map((b) => b.iteration)).toEqual(
      plain.report.blocks.filter((b) => b.solver === 'newton').map(() => 'newton'),
    );
    const a = simulate(plain, { stop: 0.2, step: 1e-3 }),
      b = simulate(option, { stop: 0.2, step: 1e-3 });
    expect([...b.get('j1.q')]).toEqual([...a.get('j1.q')]);
    expect(b.substitutions).toBeUndefined();
  });

  it('a sweep count that is not a positive integer: UsageError', () => {
    expect(() => compile(loop(0.3), { tornSubstitution: { maxSweeps: 0 } })).toThrow(UsageError);
  });
});
