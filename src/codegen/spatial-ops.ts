// Spatial vectors on flat arrays (Featherstone's notation, world frame about
// the origin, angular part first): what tree-derivatives.ts' recursions use.
// Each function reads 6-vectors at offsets of Float64Arrays into locals and
// writes its result at an offset: nothing allocated.
//   motion (w, v), force (n, f); a x b and a x* f the spatial cross products;
//   an inertia as 10 numbers m, h = m c (3) and J (6, symmetric: xx yy zz
//   xy xz yz), the rotational inertia about the origin.

/** x = I (w, v): (J w + h x v, m v - h x w), I = (m, h, J) compact; arrays and offsets */
export function inertia(m: number, H: Float64Array, h: number, J: Float64Array, j: number, X: Float64Array, x: number, out: Float64Array, o: number): void {
  const w0 = X[x],
    w1 = X[x + 1],
    w2 = X[x + 2],
    v0 = X[x + 3],
    v1 = X[x + 4],
    v2 = X[x + 5];
  const h0 = H[h],
    h1 = H[h + 1],
    h2 = H[h + 2];
  out[o] = J[j] * w0 + J[j + 3] * w1 + J[j + 4] * w2 + h1 * v2 - h2 * v1;
  out[o + 1] = J[j + 3] * w0 + J[j + 1] * w1 + J[j + 5] * w2 + h2 * v0 - h0 * v2;
  out[o + 2] = J[j + 4] * w0 + J[j + 5] * w1 + J[j + 2] * w2 + h0 * v1 - h1 * v0;
  out[o + 3] = m * v0 - (h1 * w2 - h2 * w1);
  out[o + 4] = m * v1 - (h2 * w0 - h0 * w2);
  out[o + 5] = m * v2 - (h0 * w1 - h1 * w0);
}

/** out = a x b, motion x motion: (aw x bw, aw x bv + av x bw) */
export function crossM(A: Float64Array, a: number, B: Float64Array, b: number, out: Float64Array, o: number): void {
  const aw0 = A[a],
    aw1 = A[a + 1],
    aw2 = A[a + 2],
    av0 = A[a + 3],
    av1 = A[a + 4],
    av2 = A[a + 5];
  const bw0 = B[b],
    bw1 = B[b + 1],
    bw2 = B[b + 2],
    bv0 = B[b + 3],
    bv1 = B[b + 4],
    bv2 = B[b + 5];
  out[o] = aw1 * bw2 - aw2 * bw1;
  out[o + 1] = aw2 * bw0 - aw0 * bw2;
  out[o + 2] = aw0 * bw1 - aw1 * bw0;
  out[o + 3] = aw1 * bv2 - aw2 * bv1 + av1 * bw2 - av2 * bw1;
  out[o + 4] = aw2 * bv0 - aw0 * bv2 + av2 * bw0 - av0 * bw2;
  out[o + 5] = aw0 * bv1 - aw1 * bv0 + av0 * bw1 - av1 * bw0;
}

/** out += s (a x* f), motion x force: (aw x n + av x f, aw x f) */
export function crossFAdd(A: Float64Array, a: number, F: Float64Array, f: number, s: number, out: Float64Array, o: number): void {
  const aw0 = A[a],
    aw1 = A[a + 1],
    aw2 = A[a + 2],
    av0 = A[a + 3],
    av1 = A[a + 4],
    av2 = A[a + 5];
  const n0 = F[f],
    n1 = F[f + 1],
    n2 = F[f + 2],
    f0 = F[f + 3],
    f1 = F[f + 4],
    f2 = F[f + 5];
  out[o] += s * (aw1 * n2 - aw2 * n1 + av1 * f2 - av2 * f1);
  out[o + 1] += s * (aw2 * n0 - aw0 * n2 + av2 * f0 - av0 * f2);
  out[o + 2] += s * (aw0 * n1 - aw1 * n0 + av0 * f1 - av1 * f0);
  out[o + 3] += s * (aw1 * f2 - aw2 * f1);
  out[o + 4] += s * (aw2 * f0 - aw0 * f2);
  out[o + 5] += s * (aw0 * f1 - aw1 * f0);
}

export const dot6 = (A: Float64Array, a: number, B: Float64Array, b: number): number =>
  A[a] * B[b] + A[a + 1] * B[b + 1] + A[a + 2] * B[b + 2] + A[a + 3] * B[b + 3] + A[a + 4] * B[b + 4] + A[a + 5] * B[b + 5];
