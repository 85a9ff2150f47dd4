// Yardstick: the recursive Newton-Euler algorithm of rnea.ts, line for line,
// with every floating-point operation counted (the Flops counters of aba.ts:
// a multiplication, an addition or subtraction, a division, a sin or cos;
// sign changes free, as in Kron's report.ops). (tree, q, qd, qdd) => tau and
// the operations it took. Its tau equals rnea()'s (test/dynamics/oracle-ops.test.ts).
//
// What is counted is the plain 3D algorithm of rnea.ts on dense 3-vectors and
// 3x3 matrices, with only the structural savings aba.ts allows itself:
//   - a joint axis n that is a coordinate axis: n . x picks a component,
//     s n is a vector with one entry (no operations), x + s n adds to one
//     component; Rot(n, q) is filled in from sin and cos;
//   - a body without a fixed rotation before its joint (E = identity) skips
//     E Rot(n, q);
//   - the world's motion is zero: the root bodies skip the products with it
//     (only a = Xr^T (-g) remains);
//   - model constants (n normalised, n n^T, E n, the inertia matrix, m, c, o)
//     are computed once outside the count, as Kron folds parameters.
// No symmetry, no zeros of the parameters (a CoM on an axis, a diagonal
// inertia), no zeros of E or o are exploited: Kron's generated code gets
// those from constant folding, so the comparison shows what folding buys.
import { type M3, type RneaBody, type RneaTree, type V3, normalize } from './rnea.ts';
import { Flops, type OpCounts, add3, cross3, isIdentity, mm3, mtv3, mv3 } from './aba.ts';

interface Prepared {
  b: RneaBody;
  n: V3;
  /** coordinate axis index when n is a coordinate axis, else -1 */
  k: number;
  /** E is the identity */
  plain: boolean;
  nn: M3;
  /** E n (prismatic: d = o + E n q) */
  En: V3;
  Ic: M3;
}

function prepare(b: RneaBody): Prepared {
  const n = normalize(b.axis);
  const k = n.filter((x) => x === 0).length === 2 && n.includes(1) ? n.indexOf(1) : -1;
  const [xx, yy, zz, xy, xz, yz] = b.I;
  return {
    b,
    n,
    k,
    plain: isIdentity(b.E),
    nn: n.map((x) => n.map((y) => x * y)) as M3,
    En: [0, 1, 2].map((i) => b.E[i][0] * n[0] + b.E[i][1] * n[1] + b.E[i][2] * n[2]) as V3,
    Ic: [
      [xx, xy, xz],
      [xy, yy, yz],
      [xz, yz, zz],
    ],
  };
}

// (tree, q, qd, qdd) => tau and the operations of one call
export function rneaCounted(tree: RneaTree, q: readonly number[], qd: readonly number[], qdd: readonly number[]): { tau: number[]; ops: OpCounts } {
  const f = new Flops();
  const P = tree.bodies.map(prepare);
  const nb = P.length;
  const scale3 = (s: number, a: readonly number[]): V3 => [f.mul(s, a[0]), f.mul(s, a[1]), f.mul(s, a[2])];
  /** s n */
  const sN = (p: Prepared, s: number): V3 => (p.k >= 0 ? ([0, 0, 0].map((_, j) => (j === p.k ? s : 0)) as V3) : scale3(s, p.n));
  /** x + s n */
  const plusN = (p: Prepared, x: V3, s: number): V3 => (p.k >= 0 ? (x.map((v, j) => (j === p.k ? f.add(v, s) : v)) as V3) : add3(f, x, scale3(s, p.n)));
  /** n . x */
  const dotN = (p: Prepared, x: V3): number => (p.k >= 0 ? x[p.k] : f.dot(p.n, x));
  const Xr: M3[] = [],
    d: V3[] = [],
    w: V3[] = [],
    wd: V3[] = [],
    a: V3[] = [],
    F: V3[] = [],
    N: V3[] = [];
  // outward pass
  for (let i = 0; i < nb; i++) {
    const p = P[i],
      b = p.b;
    const prismatic = b.joint === 'prismatic';
    if (prismatic) {
      Xr[i] = b.E;
      d[i] = add3(f, b.o, scale3(q[i], p.En));
    } else {
      const c = f.cos(q[i]),
        s = f.sin(q[i]);
      let R: M3;
      if (p.k === 0)
        R = [
          [1, 0, 0],
          [0, c, -s],
          [0, s, c],
        ];
      else if (p.k === 1)
        R = [
          [c, 0, s],
          [0, 1, 0],
          [-s, 0, c],
        ];
      else if (p.k === 2)
        R = [
          [c, -s, 0],
          [s, c, 0],
          [0, 0, 1],
        ];
      else {
        // Rodrigues: c 1 + (1 - c) n n^T + s [n x]
        const t = f.sub(1, c);
        const sn = scale3(s, p.n);
        const kn = p.nn.map((row) => row.map((x) => f.mul(t, x)));
        R = [
          [f.add(c, kn[0][0]), f.sub(kn[0][1], sn[2]), f.add(kn[0][2], sn[1])],
          [f.add(kn[1][0], sn[2]), f.add(c, kn[1][1]), f.sub(kn[1][2], sn[0])],
          [f.sub(kn[2][0], sn[1]), f.add(kn[2][1], sn[0]), f.add(c, kn[2][2])],
        ];
      }
      Xr[i] = p.plain ? R : mm3(f, b.E, R);
      d[i] = b.o;
    }
    let wIn: V3, wdIn: V3, aIn: V3;
    if (b.parent < 0) {
      wIn = [0, 0, 0];
      wdIn = [0, 0, 0];
      aIn = mtv3(
        f,
        Xr[i],
        tree.gravity.map((g) => -g),
      );
    } else {
      const wp = w[b.parent],
        wdp = wd[b.parent],
        ap = a[b.parent];
      wIn = mtv3(f, Xr[i], wp);
      wdIn = mtv3(f, Xr[i], wdp);
      aIn = mtv3(f, Xr[i], add3(f, ap, add3(f, cross3(f, wdp, d[i]), cross3(f, wp, cross3(f, wp, d[i])))));
    }
    if (prismatic) {
      w[i] = wIn;
      wd[i] = wdIn;
      const coriolis = b.parent < 0 ? ([0, 0, 0] as V3) : scale3(f.mul(2, qd[i]), cross3(f, w[i], p.n));
      a[i] = plusN(p, b.parent < 0 ? aIn : add3(f, aIn, coriolis), qdd[i]);
    } else if (b.parent < 0) {
      w[i] = sN(p, qd[i]);
      wd[i] = sN(p, qdd[i]);
      a[i] = aIn;
    } else {
      w[i] = plusN(p, wIn, qd[i]);
      wd[i] = plusN(p, add3(f, wdIn, scale3(qd[i], cross3(f, wIn, p.n))), qdd[i]);
      a[i] = aIn;
    }
    const ac = add3(f, a[i], add3(f, cross3(f, wd[i], b.c), cross3(f, w[i], cross3(f, w[i], b.c))));
    F[i] = scale3(b.m, ac);
    N[i] = add3(f, mv3(f, p.Ic, wd[i]), cross3(f, w[i], mv3(f, p.Ic, w[i])));
  }
  // inward pass
  const fo: V3[] = F.map((x) => [...x] as V3);
  const nm: V3[] = P.map((p, i) => add3(f, N[i], cross3(f, p.b.c, F[i])));
  const tau = new Array<number>(nb).fill(0);
  for (let i = nb - 1; i >= 0; i--) {
    const p = P[i];
    tau[i] = p.b.joint === 'prismatic' ? dotN(p, fo[i]) : dotN(p, nm[i]);
    if (p.b.parent < 0) continue;
    const fp = mv3(f, Xr[i], fo[i]);
    fo[p.b.parent] = add3(f, fo[p.b.parent], fp);
    nm[p.b.parent] = add3(f, nm[p.b.parent], add3(f, mv3(f, Xr[i], nm[i]), cross3(f, d[i], fp)));
  }
  return { tau, ops: { ...f.total } };
}
