// Derivatives of the dynamics by parameters (forwardDerivatives(..., {
// parameters }) : dqdd/dp = -M^-1 dID/dp, the tangents of the inverse code
// seeded on the symbolic parameters) against fourth-order central
// differences of the forward code re-parameterised (a model compiled with
// foldParameters: false, each parameter set on its state: the same as
// recompiling with the new value, without the compile), torn; through the
// four-bar's loop too, where a bar length moves the loop's closure.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { ModelError, UsageError } from '../../src/errors.ts';
import doublependulum from '../../mechanisms/doublependulum.ts';
import fourbar from '../../mechanisms/fourbar.ts';
import puma from '../../mechanisms/puma560.ts';
import { difference, relative } from './differences.ts';

type Build = () => Parameters<typeof compile>[0];

/** qdd at (q, qd, tau) of the forward code with parameters p (by name) set on its own state */
function forwardByParameters(build: Build, coordinates: ReturnType<typeof compile>['coordinates'], names: readonly string[]) {
  const fwd = compile(build(), { mode: 'torn', foldParameters: false });
  const state = fwd.createState(),
    x = state.x0(),
    dx = new Float64Array(x.length);
  const at = (s: string) => fwd.stateNames.indexOf(s);
  return (q: ArrayLike<number>, qd: ArrayLike<number>, tau: ArrayLike<number>, p: ArrayLike<number>) => {
    coordinates.forEach((k, i) => {
      x[at(k.q)] = q[i];
      x[at(k.qd)] = qd[i];
      state.setInput(k.tau, tau[i]);
    });
    names.forEach((name, i) => state.setParameter(name, p[i]));
    state.derivatives(0, x, dx);
    return Float64Array.from(coordinates, (k) => dx[at(k.qd)]);
  };
}

const cases: [string, Build, string[], number[]][] = [
  ['double pendulum: masses, a length, gravity', () => doublependulum(), ['link1.m', 'link2.m', 'bar1.r[1]', 'world.g[2]'], [0.4, -0.7]],
  ['PUMA 560: a mass, an inertia, a centre of mass', () => puma(), ['link2.m', 'link2.I[1][1]', 'link2.r_cm[1]'], [0.1, 0.5, -0.4, 0.2, 0.7, -0.3]],
  ['four-bar (a loop): coupler and crank lengths, a mass', () => fourbar(), ['b3.bar.r[1]', 'b1.bar.r[2]', 'b3.body.m'], [0.3]],
];

describe('dqdd/dp and dtau/dp against central differences of the re-parameterised forward and inverse code (1e-8)', () => {
  for (const [name, build, names, q] of cases) {
    it(name, () => {
      const inv = compile(build(), { problem: 'inverse', foldParameters: false });
      const n = inv.coordinates.length,
        P = names.length;
      const qd = q.map((_, i) => 0.5 - 0.2 * i),
        tau = q.map((_, i) => 0.3 * i - 0.5),
        qdd = q.map((_, i) => 1 - 0.4 * i);
      const p0 = Float64Array.from(names, (k) => inv.state.p[inv.generated.layout.parameters.indexOf(k)]);
      const f = inv.forwardDerivatives(q, qd, tau, { parameters: names });
      const fd = forwardByParameters(build, inv.coordinates, names);
      expect(relative(f.qdd, fd(q, qd, tau, p0))).toBeLessThanOrEqual(1e-10);
      const byColumns = (g: (p: Float64Array) => Float64Array) => {
        const J = new Float64Array(n * P);
        for (let j = 0; j < P; j++) difference(g, p0, j, 1e-4 * Math.max(1, Math.abs(p0[j]))).forEach((v, i) => (J[i * P + j] = v));
        return J;
      };
      expect(
        relative(
          f.dqdd_dp!,
          byColumns((p) => fd(q, qd, tau, p)),
        ),
        'dqdd/dp',
      ).toBeLessThanOrEqual(1e-8);
      // every parameter chosen moves the accelerations (a zero column would test nothing)
      for (let j = 0; j < P; j++) expect(Math.max(...Array.from({ length: n }, (_, i) => Math.abs(f.dqdd_dp![i * P + j]))), names[j]).toBeGreaterThan(1e-6);
      // the inverse code re-parameterised: a run with its own state
      const run = inv.inverseDynamics();
      const id = (p: Float64Array) => {
        names.forEach((k, i) => run.state.setParameter(k, p[i]));
        return Float64Array.from(run.evaluate(0, q, qd, qdd));
      };
      const b = inv.inverseDerivatives(q, qd, qdd, { parameters: names });
      expect(relative(b.dtau_dp!, byColumns(id)), 'dtau/dp').toBeLessThanOrEqual(1e-8);
      expect(f.dqdd_dp).toHaveLength(n * P);
    });
  }
  it('a folded parameter is a UsageError saying how to keep it; an unknown one a ModelError', () => {
    const folded = compile(doublependulum(), { problem: 'inverse' });
    expect(() => folded.forwardDerivatives([0, 0], [0, 0], [0, 0], { parameters: ['link1.m'] })).toThrow(UsageError);
    expect(() => folded.forwardDerivatives([0, 0], [0, 0], [0, 0], { parameters: ['link1.m'] })).toThrow(/link1.m is folded.*no derivative by it/);
    const kept = compile(doublependulum(), { problem: 'inverse', foldParameters: false });
    expect(() => kept.inverseDerivatives([0, 0], [0, 0], [0, 0], { parameters: ['link9.m'] })).toThrow(ModelError);
  });
});
