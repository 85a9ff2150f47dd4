// Fourth-order central differences of the compiled forward and inverse
// code: the oracle of the generated derivatives. Step h = 1e-3: the
// truncation error (h^4 / 30 of the fifth derivative) and the rounding
// (~1e-16 / h of the values) are both ~1e-12 relative on these models.
import type { CompiledModel } from '../../src/codegen/compiled.ts';

/** d f / d x_j along x_j, fourth order: (-f(+2h) + 8 f(+h) - 8 f(-h) + f(-2h)) / 12 h */
export function difference(f: (x: Float64Array) => Float64Array, x: ArrayLike<number>, j: number, h = 1e-3): Float64Array {
  const at = (d: number) => {
    const y = Float64Array.from(x);
    y[j] += d;
    return f(y);
  };
  const [p2, p1, m1, m2] = [at(2 * h), at(h), at(-h), at(-2 * h)];
  return p1.map((_, i) => (-p2[i] + 8 * p1[i] - 8 * m1[i] + m2[i]) / (12 * h));
}

/** the n x n Jacobian of f at x (row-major), column j by difference() */
export function jacobian(f: (x: Float64Array) => Float64Array, x: ArrayLike<number>, h = 1e-3): Float64Array {
  const n = x.length,
    cols = Array.from({ length: n }, (_, j) => difference(f, x, j, h));
  const m = cols[0]?.length ?? 0;
  const J = new Float64Array(m * n);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) J[i * n + j] = cols[j][i];
  return J;
}

/**
 * qdd = FD(q, qd, tau) by a model compiled for the forward problem (torn or
 * relaxed), in the inverse model's coordinate order; q's entries named by
 * `positions` (the inverse model's, with a free or ball joint's quaternion)
 */
export function forwardDynamics(
  fwd: CompiledModel,
  coordinates: CompiledModel['coordinates'],
  positions: readonly string[] = coordinates.map((k) => k.q),
): (q: ArrayLike<number>, qd: ArrayLike<number>, tau: ArrayLike<number>) => Float64Array {
  const state = fwd.createState();
  const x = state.x0(),
    dx = new Float64Array(x.length);
  const at = (name: string) => {
    const i = fwd.stateNames.indexOf(name);
    if (i < 0) throw new Error(`${name} is not a state of the forward model`);
    return i;
  };
  const iq = positions.map(at),
    iqd = coordinates.map((k) => at(k.qd));
  const itau = coordinates.map((k) => fwd.generated.layout.inputs.indexOf(k.tau));
  return (q, qd, tau) => {
    iq.forEach((k, i) => (x[k] = q[i]));
    iqd.forEach((k, i) => (x[k] = qd[i]));
    itau.forEach((k, i) => (state.u[k] = tau[i]));
    state.derivatives(0, x, dx);
    return Float64Array.from(iqd, (k) => dx[k]);
  };
}

/** the largest |a - b| over the largest |b| (at least 1) */
export function relative(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0,
    s = 1;
  for (let i = 0; i < b.length; i++) ((d = Math.max(d, Math.abs(a[i] - b[i]))), (s = Math.max(s, Math.abs(b[i]))));
  return d / s;
}
