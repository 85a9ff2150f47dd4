// Oracles for the linearization tests: central finite differences of the
// compiled model's derivatives() (the torn or relaxed code, loops closed by
// its Newton iteration), and the eigenvalues of a 2 x 2 matrix.
import type { CompiledModel } from '../../src/codegen/compiled.ts';

/** A and B of x' = f(x, u) by central differences at (x, u): step h (1 + |x_j|) */
export function finiteDifferences(compiled: CompiledModel, x: readonly number[], u: readonly number[], h = 1e-5): { A: number[][]; B: number[][] } {
  const state = compiled.createState();
  const n = x.length;
  const f = (xs: readonly number[], us: readonly number[]) => {
    state.u.set(us);
    const dx = new Float64Array(n);
    state.derivatives(0, Float64Array.from(xs), dx);
    return [...dx];
  };
  const column = (perturb: (d: number) => [number[], number[]], step: number) => {
    const plus = f(...perturb(step)),
      minus = f(...perturb(-step));
    return plus.map((p, i) => (p - minus[i]) / (2 * step));
  };
  const byState = x.map((xj, j) => column((d) => [x.map((v, k) => (k === j ? v + d : v)), [...u]], h * (1 + Math.abs(xj))));
  const byInput = u.map((uk, k) => column((d) => [[...x], u.map((v, i) => (i === k ? v + d : v))], h * (1 + Math.abs(uk))));
  const transpose = (cols: number[][]) => Array.from({ length: n }, (_, i) => cols.map((c) => c[i]));
  return { A: transpose(byState), B: transpose(byInput) };
}

/** the largest |a - b| over the largest |b| (at least 1): the relative difference of two matrices */
export function relativeDifference(a: readonly (readonly number[])[], b: readonly (readonly number[])[]): number {
  let diff = 0,
    scale = 1;
  b.forEach((row, i) => row.forEach((v, j) => ((diff = Math.max(diff, Math.abs(a[i][j] - v))), (scale = Math.max(scale, Math.abs(v))))));
  return diff / scale;
}

/** eigenvalues of [[a, b], [c, d]] from the characteristic polynomial l^2 - tr l + det */
export function eigenvalues2(M: readonly (readonly number[])[]): { re: number; im: number }[] {
  const [[a, b], [c, d]] = M;
  const half = (a + d) / 2,
    disc = half * half - (a * d - b * c);
  if (disc >= 0) {
    const r = Math.sqrt(disc);
    // the larger root directly, the smaller from the product (no cancellation)
    const big = half >= 0 ? half + r : half - r;
    const small = big === 0 ? 0 : (a * d - b * c) / big;
    return [
      { re: big, im: 0 },
      { re: small, im: 0 },
    ].sort((p, q) => q.re - p.re);
  }
  const r = Math.sqrt(-disc);
  return [
    { re: half, im: r },
    { re: half, im: -r },
  ];
}
