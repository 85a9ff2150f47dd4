// The run-time former of a torn linear loop's H by columns (codegen's
// linear.ts, columns): the generated code emits the loop's straight-line
// pieces, the causal sequence with the residues into r and their derivative
// along the directions dz into d, as functions of (t, x, u, p, w), and a
// record of the block (columnsBlock) that columnsForm is called with.
import type { Piece, Workspace } from './types.ts';

/** a linear loop formed by columns (columnsBlock) */
export interface ColumnsBlock {
  readonly k: number;
  readonly z: ArrayLike<number>;
  readonly dz: ArrayLike<number>;
  readonly H: Workspace;
  readonly c: Workspace;
  readonly r: Workspace;
  readonly d: Workspace;
  readonly residual: Piece;
  readonly direction: Piece;
}

// A linear loop whose H columnsForm forms: k tearing variables in the
// workspace slots z, the slots dz of their directions, H (k x k) and c, r
// that residual() fills (the causal sequence and the residues), d that
// direction() fills (their derivatives along dz).
export function columnsBlock(
  k: number,
  z: ArrayLike<number>,
  dz: ArrayLike<number>,
  H: Workspace,
  c: Workspace,
  r: Workspace,
  d: Workspace,
  residual: Piece,
  direction: Piece,
): ColumnsBlock {
  return { k, z, dz, H, c, r, d, residual, direction };
}

// H z = c formed at run time by columns (Walker and Orin's method 1): the
// causal sequence and the residues at z = 0 give c = -r(0); the derivative
// of the sequence and the residues along dz = e_j gives column j
export function columnsForm(b: ColumnsBlock, t: number, x: ArrayLike<number>, u: ArrayLike<number>, p: ArrayLike<number>, w: Workspace): void {
  const k = b.k,
    z = b.z,
    dz = b.dz,
    H = b.H,
    c = b.c,
    r = b.r,
    d = b.d;
  for (let i = 0; i < k; i++) w[z[i]] = 0;
  b.residual(t, x, u, p, w);
  for (let i = 0; i < k; i++) c[i] = -r[i];
  for (let j = 0; j < k; j++) w[dz[j]] = 0;
  for (let j = 0; j < k; j++) {
    w[dz[j]] = 1;
    b.direction(t, x, u, p, w);
    for (let i = 0; i < k; i++) H[i * k + j] = d[i];
    w[dz[j]] = 0;
  }
}
