// A and B against central finite differences of the compiled model's
// derivatives() (the torn or relaxed code; loops closed by its Newton
// iteration at every perturbed state). The linearization itself never runs
// that code's solve forms: symbolic derivatives of the flat equations and
// the implicit function theorem (src/analysis/implicit.ts).
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import doublependulum from '../../mechanisms/doublependulum.ts';
import chain from '../../mechanisms/chain.ts';
import fourbar from '../../mechanisms/fourbar.ts';
import fourbarPlanar from '../../mechanisms/fourbar-planar.ts';
import puma from '../../mechanisms/puma560.ts';
import { compile } from '../../src/compile.ts';
import { linearize } from '../../src/analysis/index.ts';
import { finiteDifferences, relativeDifference } from './helpers.ts';

/** linearize at the point and difference derivatives() there; both relative differences */
function compare(model: Parameters<typeof compile>[0], at: Record<string, number>, mode: 'torn' | 'relaxed' = 'torn', u: Record<string, number> = {}) {
  const compiled = compile(model, { mode });
  const l = linearize(compiled, { at: { ...at, ...u } });
  const fd = finiteDifferences(compiled, l.x, l.u);
  return { l, fd, a: relativeDifference(l.A, fd.A), b: relativeDifference(l.B, fd.B) };
}

describe('linearize against finite differences of derivatives()', () => {
  it('double pendulum, away from equilibrium, both modes (1e-7)', () => {
    for (const mode of ['torn', 'relaxed'] as const) {
      const { a, b, l } = compare(doublependulum(), { 'j1.q': 0.4, 'j2.q': -0.3, 'j1.qd': 1.1, 'j2.qd': -0.7 }, mode, { 'j2.tau': 0.3 });
      expect(l.states).toEqual(['j1.q', 'j1.qd', 'j2.q', 'j2.qd']);
      expect(a).toBeLessThanOrEqual(1e-7);
      expect(b).toBeLessThanOrEqual(1e-7);
    }
  });
  it('spatial chain of 6 links with velocities (1e-7)', () => {
    const at: Record<string, number> = {};
    for (let k = 1; k <= 6; k++) ((at[`j${k}.q`] = 0.3 * Math.sin(k)), (at[`j${k}.qd`] = 0.5 * Math.cos(2 * k)));
    const { a, b } = compare(chain({ n: 6 }), at);
    expect(a).toBeLessThanOrEqual(1e-7);
    expect(b).toBeLessThanOrEqual(1e-7);
  });
  it('spatial four-bar (loop closed: j2..j4 follow j1), both modes (1e-7)', () => {
    for (const mode of ['torn', 'relaxed'] as const) {
      for (const [q, qd] of [
        [0.3, 0],
        [1.2, 2.5],
        [-2, -4],
      ]) {
        const { a, b, l } = compare(fourbar(), { 'j1.q': q, 'j1.qd': qd }, mode);
        expect(l.states).toEqual(['j1.q', 'j1.qd']);
        expect(a).toBeLessThanOrEqual(1e-7);
        expect(b).toBeLessThanOrEqual(1e-7);
      }
    }
  });
  it("spatial four-bar with the tilted guide (the tearing paper's three loops) (1e-7)", () => {
    const { a, b } = compare(fourbar({ tilt: 0.3 }), { 'j1.q': 0.5, 'j1.qd': 1 });
    expect(a).toBeLessThanOrEqual(1e-7);
    expect(b).toBeLessThanOrEqual(1e-7);
  });
  it('planar four-bar (planar cut), both modes (1e-7)', () => {
    for (const mode of ['torn', 'relaxed'] as const) {
      for (const [q, qd] of [
        [Math.PI / 3, 4],
        [2.5, -1],
        [-1, 0],
      ]) {
        const { a, b } = compare(fourbarPlanar(), { 'j1.q': q, 'j1.qd': qd }, mode);
        expect(a).toBeLessThanOrEqual(1e-7);
        expect(b).toBeLessThanOrEqual(1e-7);
      }
    }
  });
  it('PUMA 560 (1e-7)', () => {
    const at = { 'j1.q': 0.1, 'j2.q': 0.5, 'j3.q': -0.4, 'j4.q': 0.2, 'j5.q': 0.7, 'j6.q': -0.3, 'j2.qd': 0.5, 'j5.qd': -1 };
    const { a, b } = compare(puma(), at);
    expect(a).toBeLessThanOrEqual(1e-7);
    expect(b).toBeLessThanOrEqual(1e-7);
  });
});

describe('every model module of mechanisms/ at its start values', () => {
  // mechanical, rotational, electrical and bond-graph models; loops (sixbar: two); models without states or inputs
  const files = readdirSync(new URL('../../mechanisms/', import.meta.url))
    .filter((f) => f.endsWith('.ts'))
    .sort();
  it.each(files)('%s: A and B against central differences (1e-7)', async (file) => {
    const build = (await import(`../../mechanisms/${file}`)).default as (p?: object) => Parameters<typeof compile>[0];
    const compiled = compile(build(file === 'chain.ts' ? { n: 5 } : file === 'longdrivetrain.ts' ? { n: 20 } : {}));
    // the differences move every state: a quaternion's four too (the tangent-space form: floating.test.ts)
    const l = linearize(compiled, { quaternions: 'states' });
    expect(l.states).toEqual(compiled.stateNames);
    expect(l.A).toHaveLength(compiled.stateNames.length);
    const fd = finiteDifferences(compiled, l.x, l.u);
    expect(relativeDifference(l.A, fd.A)).toBeLessThanOrEqual(1e-7);
    expect(relativeDifference(l.B, fd.B)).toBeLessThanOrEqual(1e-7);
  });
});
