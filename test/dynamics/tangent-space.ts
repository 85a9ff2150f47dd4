// Differences on the tangent space of a model with free or ball joints: the
// oracle of their generated derivatives. Positions q (n_q of them, a
// quaternion's four numbers among them) move as Pinocchio's integrate,
// q (+) delta e_j: a joint coordinate by delta, a quaternion rotation about
// frame_b's axis as Q (x) exp(delta e_axis / 2), normalised as the
// integrators normalise Q after a step. Written here from the definition
// (the library's der(Q) = 1/2 Q (x) (0, w): w in frame_b, so the turn
// multiplies on the right), not from the code under test.
import type { CompiledModel } from '../../src/codegen/compiled.ts';

/** per coordinate: the index in q of its position, or of its quaternion's first number and the axis */
type Place = { at: number; axis?: number };

/** where each coordinate's position sits in q: a quaternion's Q[1..4] where its joint's first rotation stands */
export function places(coordinates: CompiledModel['coordinates']): Place[] {
  let at = 0;
  return coordinates.map((c) => {
    if (!c.quaternion) return { at: at++ };
    const place = { at, axis: c.quaternion.axis };
    if (c.quaternion.axis === 2) at += 4;
    return place;
  });
}

/** Hamilton product a (x) b, scalar first */
export function qmul(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const [aw, ax, ay, az] = Array.from(a),
    [bw, bx, by, bz] = Array.from(b);
  return [
    aw * bw - ax * bx - ay * by - az * bz,
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
  ];
}

/** q (+) delta e_j */
export function integrate(where: readonly Place[], q: ArrayLike<number>, j: number, delta: number): Float64Array {
  const y = Float64Array.from(q),
    p = where[j];
  if (p.axis === undefined) {
    y[p.at] += delta;
    return y;
  }
  const turn = [Math.cos(delta / 2), 0, 0, 0];
  turn[1 + p.axis] = Math.sin(delta / 2);
  const Q = qmul(y.subarray(p.at, p.at + 4), turn),
    norm = Math.hypot(...Q);
  Q.forEach((v, k) => (y[p.at + k] = v / norm));
  return y;
}

/** d f(q (+) delta e_j) / d delta at 0 for every j (m x n, row-major), fourth-order central differences */
export function tangentJacobian(f: (q: Float64Array) => Float64Array, where: readonly Place[], q: ArrayLike<number>, h = 1e-3): Float64Array {
  const n = where.length;
  const cols = where.map((_, j) => {
    const [p2, p1, m1, m2] = [2 * h, h, -h, -2 * h].map((d) => f(integrate(where, q, j, d)));
    return p1.map((_, i) => (-p2[i] + 8 * p1[i] - 8 * m1[i] + m2[i]) / (12 * h));
  });
  const m = cols[0]?.length ?? 0;
  const J = new Float64Array(m * n);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) J[i * n + j] = cols[j][i];
  return J;
}

/** a point's positions: joint coordinates uniform in +-s, each quaternion a random unit one (rnd in [0, 1)) */
export function randomPositions(where: readonly Place[], nq: number, rnd: () => number, s: number): Float64Array {
  const q = Float64Array.from({ length: nq }, () => s * (2 * rnd() - 1));
  for (const p of where) {
    if (p.axis !== 0) continue;
    const Q = [0.5 + rnd(), rnd() - 0.5, rnd() - 0.5, rnd() - 0.5],
      norm = Math.hypot(...Q);
    Q.forEach((v, k) => (q[p.at + k] = v / norm));
  }
  return q;
}
