// frameJacobianFunction through kinematic loops (issue 33): J by the
// independent coordinates (the state joints'), the loop's joints following
// through its implicit tangent, and J' qd. Oracles: fourth-order
// differences of the frame's pose along the constrained motion (the
// compiled model re-solving the loop at each perturbed q: dr/dq and
// vee(dR/dq R^T)), the symbolic frameJacobian() at the same point (the
// implicit function theorem on the flat equations), and for J' qd the
// derivative of J(q(t)) qd(t) along a curved path minus J qdd.
import { describe, expect, it } from 'vitest';
import fourbar from '../../mechanisms/fourbar.ts';
import fourbarPlanar from '../../mechanisms/fourbar-planar.ts';
import sixbar from '../../mechanisms/sixbar.ts';
import slidercrank from '../../mechanisms/slidercrank.ts';
import { compile } from '../../src/compile.ts';
import { frameJacobian, frameJacobianFunction } from '../../src/analysis/index.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { relativeDifference } from './helpers.ts';

type Build = () => Parameters<typeof compile>[0];
const loops: [string, Build, string, number][] = [
  ['the spatial four-bar', () => fourbar(), 'b3.bar.frame_b', 0.3],
  ['the planar four-bar', () => fourbarPlanar(), 'coupler.bar.frame_b', 0.4],
  ['the six-bar', () => sixbar(), 'coupler2.bar.frame_b', 0.5],
  ['the slider-crank', () => slidercrank(), 'coupler.bar.frame_b', 0.6],
];
const h = 1e-4;
const d4 = (f: (t: number) => number[]) => {
  const [p2, p1, m1, m2] = [f(2 * h), f(h), f(-h), f(-2 * h)];
  return p1.map((_, k) => (-p2[k] + 8 * p1[k] - 8 * m1[k] + m2[k]) / (12 * h));
};

/** the frame's r and R (row-major) at state joints' q, by the compiled model's own solve of the loop */
function pose(compiled: CompiledModel, frame: string, coordinates: readonly string[]): (q: readonly number[]) => number[] {
  const state = compiled.createState(),
    x = state.x0(),
    dx = new Float64Array(x.length);
  const at = coordinates.map((c) => compiled.stateNames.indexOf(c));
  const names = [...[1, 2, 3].map((k) => `${frame}.r[${k}]`), ...[1, 2, 3].flatMap((a) => [1, 2, 3].map((b) => `${frame}.R[${a}][${b}]`))];
  return (q) => {
    at.forEach((k, i) => (x[k] = q[i]));
    state.derivatives(0, x, dx);
    return names.map((n) => state.signal(n));
  };
}

describe('frameJacobianFunction through kinematic loops', () => {
  for (const [name, build, frame, q0] of loops) {
    for (const mode of ['torn', 'relaxed'] as const) {
      it(`${name} (${mode}), ${frame}: J against differences of the pose along the constrained motion (1e-8) and the symbolic J (1e-10)`, () => {
        const compiled = compile(build(), { mode });
        const f = frameJacobianFunction(compiled, frame);
        const n = f.coordinates.length,
          at = pose(compile(build(), { mode }), frame, f.coordinates);
        for (const s of [0, 1, 2]) {
          const q = f.coordinates.map((_, i) => q0 + 0.2 * s + 0.1 * i);
          const J = f.jacobian(q);
          const rows = Array.from({ length: 6 }, (_, k) => [...J.subarray(k * n, (k + 1) * n)]);
          const P = at(q),
            R = (a: number, b: number) => P[3 + 3 * a + b];
          const want = Array.from({ length: 6 }, () => new Array<number>(n).fill(0));
          for (let j = 0; j < n; j++) {
            const d = d4((t) => at(q.map((v, i) => (i === j ? v + t : v))));
            for (let k = 0; k < 3; k++) want[k][j] = d[k];
            // W = dR/dq R^T, its axial vector
            const W = (a: number, b: number) => [0, 1, 2].reduce((sum, c) => sum + d[3 + 3 * a + c] * R(b, c), 0);
            [want[3][j], want[4][j], want[5][j]] = [(W(2, 1) - W(1, 2)) / 2, (W(0, 2) - W(2, 0)) / 2, (W(1, 0) - W(0, 1)) / 2];
          }
          expect(relativeDifference(rows, want), `differences, point ${s}`).toBeLessThanOrEqual(1e-8);
          const symbolic = frameJacobian(compiled, frame, { at: Object.fromEntries(f.coordinates.map((c, i) => [c, q[i]])), method: 'symbolic' });
          expect(relativeDifference(rows, symbolic.J), `symbolic, point ${s}`).toBeLessThanOrEqual(1e-10);
          expect(Math.max(...J.map(Math.abs))).toBeGreaterThan(1e-2);
        }
      });
      it(`${name} (${mode}), ${frame}: J' qd against differences of J(q(t)) qd(t) along a path minus J qdd (1e-8)`, () => {
        const f = frameJacobianFunction(compile(build(), { mode }), frame);
        const n = f.coordinates.length;
        for (const s of [0, 1]) {
          const start = f.coordinates.map((_, i) => q0 + 0.2 * s + 0.1 * i),
            v = f.coordinates.map((_, i) => 1.3 - 0.4 * i + s),
            a = f.coordinates.map((_, i) => 0.7 + 0.3 * i - s);
          const Jv = (t: number) => {
            const J = f.jacobian(start.map((q, i) => q + t * v[i] + (t * t * a[i]) / 2));
            return Array.from({ length: 6 }, (_, r) => v.reduce((sum, vi, i) => sum + J[r * n + i] * (vi + t * a[i]), 0));
          };
          const J0 = f.jacobian(start);
          const want = d4(Jv).map((d, r) => d - a.reduce((sum, ai, i) => sum + J0[r * n + i] * ai, 0));
          const got = f.jdotqd(start, v);
          const scale = Math.max(1, ...want.map(Math.abs));
          expect(Math.max(...want.map((w, r) => Math.abs(got[r] - w))) / scale, `point ${s}`).toBeLessThanOrEqual(1e-8);
          expect(Math.max(...got.map(Math.abs))).toBeGreaterThan(1e-3);
        }
      });
    }
  }
});
