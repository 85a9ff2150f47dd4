// Relaxing paper, section 2: h1(z1, z3), h2(z2), h3(z1, z2) sort into the
// strictly lower triangular BLT form S2, solved in the order z2, z1, z3.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import type { Step } from '../../src/structure/plan-types.ts';
import build, { parameters } from '../../mechanisms/threeequations.ts';

// (plan steps) => names of the variables in the order they are computed
function solveOrder(steps: readonly Step[]): string[] {
  return steps.flatMap((s) => (s.kind === 'assign' ? s.assigns.map((a) => a.target.name) : [...s.z.map((v) => v.name), ...s.y.map((a) => a.target.name)]));
}

describe('three equations (relaxing paper section 2)', () => {
  it('has no algebraic loop: every block has size 1', () => {
    const c = compile(build());
    expect(c.report.blocks).toEqual([]);
    expect(c.report.unknowns).toBe(3);
  });

  it('solves z2 from h2, then z1 from h3, then z3 from h1', () => {
    const c = compile(build());
    expect(solveOrder(c.plan.steps).filter((n) => /^h\.z\d$/.test(n))).toEqual(['h.z2', 'h.z1', 'h.z3']);
  });

  it.each([parameters.c, 2, 30])('the values satisfy h1..h3 (c = %d)', (cval) => {
    const c = compile(build({ c: cval }));
    c.derivatives(0, c.x0(), new Float64Array(0));
    const [z1, z2, z3] = ['h.z1', 'h.z2', 'h.z3'].map((n) => c.signal(n));
    expect(Math.abs(z1 * z1 + z3 - 3)).toBeLessThan(1e-10); // h1
    expect(Math.abs(z2 ** 3 + z2 - cval)).toBeLessThan(1e-10); // h2
    expect(Math.abs(Math.exp(z1) + z1 - z2)).toBeLessThan(1e-10); // h3
  });
});
