// The pendulum linearized at the bottom and the top against its closed form:
// with the pivot inertia I = Izz + m L^2 and the distance d = L of the centre
// of mass, the equivalent length is l = I / (m d) and
//   bottom: x' = [[0, 1], [-g/l, 0]] x + [[0], [1/I]] tau,  eigenvalues ±i sqrt(g/l)
//   top:    x' = [[0, 1], [ g/l, 0]] x + [[0], [1/I]] tau,  eigenvalues ±sqrt(g/l)
import { describe, expect, it } from 'vitest';
import pendulum, { parameters } from '../../mechanisms/pendulum.ts';
import { compile } from '../../src/compile.ts';
import { linearize } from '../../src/analysis/index.ts';
import { flatten } from '../../src/model/index.ts';
import { eigenvalues2 } from './helpers.ts';

const g = 9.80665;
const { m, L, Izz } = parameters;
const I = Izz + m * L * L; // 0.26 kg m^2 about the pivot
const lEff = I / (m * L); // 0.52 m
const omega = Math.sqrt(g / lEff);
const bottom = { 'j1.q': -Math.PI / 2, 'j1.qd': 0 };
const top = { 'j1.q': Math.PI / 2, 'j1.qd': 0 };

describe('linearize: the pendulum against its closed form', () => {
  it('at the bottom: eigenvalues ±i sqrt(g / l_eff), B = 1 / I_pivot', () => {
    for (const mode of ['torn', 'relaxed'] as const) {
      const l = linearize(pendulum(), { at: bottom, mode });
      expect(l.states).toEqual(['j1.q', 'j1.qd']);
      expect(l.inputs).toEqual(['j1.tau']);
      const [e1, e2] = eigenvalues2(l.A);
      expect(Math.abs(e1.re)).toBeLessThanOrEqual(1e-8 * omega);
      expect(Math.abs(e2.re)).toBeLessThanOrEqual(1e-8 * omega);
      expect(Math.abs(Math.abs(e1.im) - omega) / omega).toBeLessThanOrEqual(1e-8);
      expect(e2.im).toBeCloseTo(-e1.im, 12);
      expect(Math.abs(l.B[1][0] * I - 1)).toBeLessThanOrEqual(1e-12);
      expect(l.B[0][0]).toBe(0);
      expect(l.A[0]).toEqual([0, 1]);
      // at rest at the bottom: an equilibrium
      expect(Math.abs(l.dx[1])).toBeLessThanOrEqual(1e-12);
    }
  });
  it('at the top: eigenvalues ±sqrt(g / l_eff)', () => {
    const l = linearize(pendulum(), { at: top });
    const [e1, e2] = eigenvalues2(l.A);
    expect(e1.im).toBe(0);
    expect(Math.abs(e1.re - omega) / omega).toBeLessThanOrEqual(1e-8);
    expect(Math.abs(e2.re + omega) / omega).toBeLessThanOrEqual(1e-8);
    expect(Math.abs(l.B[1][0] * I - 1)).toBeLessThanOrEqual(1e-12);
  });
  it("away from equilibrium: A = [[0, 1], [m g L sin q / I, 0]] and x' = f(x) at the point", () => {
    const q = 0.7,
      qd = 1.3;
    const l = linearize(pendulum(), { at: { 'j1.q': q, 'j1.qd': qd, 'j1.tau': 0.5 } });
    expect(l.A[1][0]).toBeCloseTo((m * g * L * Math.sin(q)) / I, 12);
    expect(Math.abs(l.A[1][1])).toBeLessThanOrEqual(1e-14); // exactly 0, up to rounding in the acceleration-level block
    expect(l.dx[0]).toBe(qd);
    expect(l.dx[1]).toBeCloseTo((0.5 - m * g * L * Math.cos(q)) / I, 12);
    expect(l.u).toEqual([0.5]);
  });
  it('outputs: C and D of a state, an unknown, an input, a frame orientation', () => {
    const q = 0.4;
    const l = linearize(pendulum(), { at: { 'j1.q': q }, outputs: ['j1.q', 'der(j1.qd)', 'j1.tau', 'link.frame_a.R[1][1]', 'link.frame_a.R[2][1]'] });
    expect(l.C[0]).toEqual([1, 0]);
    expect(l.D[0]).toEqual([0]);
    expect(l.C[1][0]).toBeCloseTo(l.A[1][0], 14);
    expect(l.D[1][0]).toBeCloseTo(l.B[1][0], 14);
    expect(l.C[2]).toEqual([0, 0]);
    expect(l.D[2]).toEqual([1]);
    // R = rotation about z by q: R[1][1] = cos q, R[2][1] = sin q
    expect(l.y[3]).toBeCloseTo(Math.cos(q), 14);
    expect(l.C[3][0]).toBeCloseTo(-Math.sin(q), 14);
    expect(l.C[4][0]).toBeCloseTo(Math.cos(q), 14);
  });
  it('never changes the model, and a compiled model gives the same result', () => {
    const model = pendulum();
    const before = flatten(model).variables.map((v) => [v.name, v.kind, v.start, v.value]);
    const l = linearize(model, { at: top, parameters: { 'link.m': 3 } });
    const after = flatten(model).variables.map((v) => [v.name, v.kind, v.start, v.value]);
    expect(after).toEqual(before);
    expect(compile(model).x0()).toEqual(Float64Array.of(parameters.q0, parameters.qd0));
    const again = linearize(compile(model, { parameters: { 'link.m': 3 } }), { at: top });
    expect(again.A).toEqual(l.A);
    expect(again.B).toEqual(l.B);
    // m = 3: l_eff = (Izz + 3 L^2) / (3 L)
    expect(l.A[1][0]).toBeCloseTo(g / ((Izz + 3 * L * L) / (3 * L)), 10);
  });
  it('parameters kept symbolic change per linearization without compiling again; folded ones cannot', () => {
    const kept = compile(pendulum(), { foldParameters: false });
    for (const mass of [0.5, 3]) {
      const l = linearize(kept, { at: top, parameters: { 'link.m': mass } });
      expect(Math.abs(l.A[1][0] - g / ((Izz + mass * L * L) / (mass * L)))).toBeLessThanOrEqual(1e-12 * l.A[1][0]);
      expect(Math.abs(l.B[1][0] * (Izz + mass * L * L) - 1)).toBeLessThanOrEqual(1e-12);
    }
    expect(() => linearize(compile(pendulum()), { parameters: { 'link.m': 3 } })).toThrow(/parameter link.m was folded into the generated code/);
  });
});
