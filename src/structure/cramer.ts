// structure/cramer: symbolic solution of a small linear system H z = c by
// Cramer's rule, every subdeterminant computed once and shared (Carpanzano &
// Formenti 1994, "Solution of symbolic linear systems in OmSim using Cramer's
// rule", section 5: the subdeterminant tree).
//
// Glossary (paper sections 4-5)
//   k         order of H (row-major, k x k); meant for k <= 4 or so
//   block     a diagonal block of the block-lower-triangular form of H (blt.ts): blocks are
//             solved in order, each by Cramer's rule, with the z of earlier blocks moved to
//             the right-hand side. An irreducible H is one block; a triangular H is k blocks
//             of one (forward substitution), a diagonal H gives z_i = c_i / H_ii
//   column j  within a block of order n: 0..n-1 the block's columns of H; j = n is its
//             right-hand side. Our convention differs from the paper's, which reads z from
//             elements of H^-1 times the nonzero entries of c (section 5.5): we treat c as
//             one more column, so the n replaced determinants share their minors with det
//             and with each other (at n = 3: 24 mul against 30 for the cofactor form)
//   R, C      row and column sets of a submatrix as bitmasks (the paper's Mask, section 4)
//   minor     det of the submatrix R x C, columns in ascending index order; a node of
//             the paper's tree, found again by its key instead of a tree search
//             (section 5.3, Search and Connect)
//   line      the row or column a minor is expanded along (the Mask's Select, section 4)
//   D_i       det(block with column i replaced by c) = (-1)^(n-1-i) minor(all rows, {0..n} \ {i}):
//             moving c from position i to the last position passes n-1-i columns
//   pool      non-trivial subdeterminants bound to Temps, one per distinct expression
//             (the paper's detvar, section 5.7)
import { type Expr, ONE, ZERO, add, div, isConst, mul, sub } from '../expr/index.ts';
import { expressionOps } from './costs.ts';
import { StructuralError } from '../errors.ts';
import { bltBlocks } from './blt.ts';
import { bipartiteFromLists } from './graph.ts';
import { maximumMatching } from './matching.ts';
import type { Assign } from './plan-types.ts';
import { TempPool } from './affine.ts';

/** rows: expand along the lowest row (for a dense block all minors of one order then share
 *  their rows); sparse: along the line with fewest structural nonzeros (ties: rows, lowest index) */
type Strategy = 'rows' | 'sparse';

const bitsOf = (mask: number): number[] => {
  const out: number[] = [];
  for (let b = 0; mask >> b; b++) if ((mask >> b) & 1) out.push(b);
  return out;
};

/** one diagonal block [Hb cb] of order n: rows and columns local, names global */
interface Block {
  n: number;
  /** Hb row-major n x n */
  H: readonly Expr[];
  c: readonly Expr[];
  /** rows and columns of H the block's rows and columns are */
  rowIds: readonly number[];
  colIds: readonly number[];
}

/** The subdeterminant tree of the n x (n+1) matrix [Hb cb] (paper section 5.1), built on demand. */
class MinorTree {
  private readonly memo = new Map<number, Expr>();
  private readonly bound = new Map<number, Expr>();
  constructor(
    private readonly b: Block,
    private readonly strategy: Strategy,
    readonly pool: TempPool,
  ) {}

  /** structural entry (r, j) of [Hb cb], unbound */
  private raw(r: number, j: number): Expr {
    return j < this.b.n ? this.b.H[r * this.b.n + j] : this.b.c[r];
  }

  /** entry (r, j), bound to a Temp on first use if it is neither a constant nor a symbol */
  private entry(r: number, j: number): Expr {
    const key = r * (this.b.n + 1) + j;
    let e = this.bound.get(key);
    if (!e) {
      const row = this.b.rowIds[r];
      e = this.pool.use(this.raw(r, j), () => (j < this.b.n ? `H[${row},${this.b.colIds[j]}]` : `c[${row}]`));
      this.bound.set(key, e);
    }
    return e;
  }

  // (rows R, columns C) => det of R x C, bound to a Temp when non-trivial; each (R, C) once (section 5.3)
  minor(R: number, C: number): Expr {
    const key = R * 2 ** (this.b.n + 1) + C;
    let m = this.memo.get(key);
    if (m === undefined) {
      m = this.pool.use(this.expand(R, C), () => this.name(R, C));
      this.memo.set(key, m);
    }
    return m;
  }

  // (R, C) => det of R x C as a sum over one line, unbound (section 5.1, rule 3: a node is the
  // sum of its children; each child (-1)^(cstrow+cscol) element(rowX, colY) subdet)
  expand(R: number, C: number): Expr {
    if (R === 0) return ONE;
    const rows = bitsOf(R),
      cols = bitsOf(C);
    if (rows.length === 1) return this.entry(rows[0], cols[0]);
    const line = this.select(rows, cols);
    if (line.nonzeros === 0) return ZERO; // structurally zero line: the paper's null node (figure 5)
    const terms: Expr[] = [];
    (line.isRow ? cols : rows).forEach((other, q) => {
      const [r, j] = line.isRow ? [line.index, other] : [other, line.index];
      if (isConst(this.raw(r, j), 0)) return; // structural zero: no child
      const subdet = this.minor(R & ~(1 << r), C & ~(1 << j));
      if (subdet === ZERO) return; // zero minor: no child
      terms.push(mul((line.position + q) % 2 === 0 ? 1 : -1, this.entry(r, j), subdet));
    });
    return add(...terms);
  }

  /** the line to expand along (the Mask's Select, section 4): lowest row, or the sparsest line */
  private select(rows: number[], cols: number[]): { isRow: boolean; index: number; position: number; nonzeros: number } {
    const count = (isRow: boolean, i: number) => (isRow ? cols : rows).filter((o) => !isConst(isRow ? this.raw(i, o) : this.raw(o, i), 0)).length;
    let best = { isRow: true, index: rows[0], position: 0, nonzeros: count(true, rows[0]) };
    if (this.strategy === 'rows') return best;
    const consider = (isRow: boolean, index: number, position: number) => {
      const nonzeros = count(isRow, index);
      if (nonzeros < best.nonzeros) best = { isRow, index, position, nonzeros };
    };
    rows.forEach((r, p) => consider(true, r, p));
    cols.forEach((j, p) => consider(false, j, p));
    return best;
  }

  /** e.g. minor[12;02c]: rows 1, 2 and columns 0, 2 and c of H (global indices) */
  name(R: number, C: number): string {
    const cols = bitsOf(C).map((j) => (j === this.b.n ? 'c' : String(this.b.colIds[j])));
    return `minor[${bitsOf(R)
      .map((r) => this.b.rowIds[r])
      .join('')};${cols.join('')}]`;
  }
}

interface BlockSolution {
  z: Expr[];
  det: Expr;
  pool: TempPool;
}

// (block, strategy) => det once (bound), z_i = D_i / det (section 5.5); D_i is used once and is not bound
function cramerBlock(b: Block, strategy: Strategy, parent: TempPool, detName: string): BlockSolution {
  const pool = new TempPool(parent.prefix, parent);
  const tree = new MinorTree(b, strategy, pool);
  const all = (1 << b.n) - 1;
  const det = pool.use(tree.expand(all, all), detName || tree.name(all, all));
  if (det === ZERO) return { z: [], det, pool };
  const z: Expr[] = [];
  for (let i = 0; i < b.n; i++) {
    const Di = tree.expand(all, ((1 << (b.n + 1)) - 1) & ~(1 << i));
    z.push(Di === ZERO ? ZERO : div(mul((b.n - 1 - i) % 2 === 0 ? 1 : -1, Di), det));
  }
  return { z, det, pool };
}

const cost = (s: BlockSolution): number => {
  const o = expressionOps([...s.pool.assigns.map((a) => a.expr), ...s.z]);
  return o.mul + o.add + o.div + o.fn;
};

// (block) => its solution: order 1 by one division, else the cheaper of the two expansion strategies
function solveBlock(b: Block, pool: TempPool, detName: string): BlockSolution {
  // H[0] is ZERO when its value is identically zero (TempPool), not only when it is structurally absent
  if (b.n === 1) return { z: b.H[0] === ZERO ? [] : [div(b.c[0], b.H[0])], det: b.H[0], pool: new TempPool(pool.prefix, pool) };
  const byRows = cramerBlock(b, 'rows', pool, detName);
  const sparse = cramerBlock(b, 'sparse', pool, detName);
  return byRows.det !== ZERO && cost(sparse) < cost(byRows) ? sparse : byRows;
}

/** parity of a permutation given as an array: +1 or -1 (count of inversions) */
function parity(p: readonly number[]): number {
  let s = 1;
  for (let i = 0; i < p.length; i++) for (let j = i + 1; j < p.length; j++) if (p[i] > p[j]) s = -s;
  return s;
}

// (H, k) => diagonal blocks of the block-lower-triangular form, in solve order (rows and
// columns ascending within a block); null if H is structurally singular
function diagonalBlocks(H: readonly Expr[], k: number): { rows: number[]; cols: number[] }[] | null {
  const lists = Array.from({ length: k }, (_, r) => {
    const row: number[] = [];
    for (let j = 0; j < k; j++) if (!isConst(H[r * k + j], 0)) row.push(j);
    return row;
  });
  const g = bipartiteFromLists(k, lists);
  const m = maximumMatching(g);
  if (m.size < k) return null;
  const blt = bltBlocks(g, m);
  const blocks: { rows: number[]; cols: number[] }[] = [];
  for (let b = 0; b + 1 < blt.blockStart.length; b++) {
    const rows = Array.from(blt.order.subarray(blt.blockStart[b], blt.blockStart[b + 1]));
    blocks.push({ rows, cols: rows.map((r) => m.eqToVar[r]).sort((x, y) => x - y) });
  }
  return blocks;
}

function singular(k: number, label: string, why: string): StructuralError {
  return new StructuralError(`the ${k}x${k} linear system${label ? ` ${label}` : ''} is singular: ${why}`, {
    hint: 'H z = c has no unique solution for any values; check the tearing variables and residue equations',
  });
}

/**
 * Symbolic solution of H z = c (H row-major k x k, k <= 4 or so) by Cramer's rule with shared
 * subdeterminants (Carpanzano & Formenti 1994, section 5). H is first put in block-lower-
 * triangular form; each diagonal block is solved by Cramer's rule, z_i = D_i / det(block), with
 * the z of earlier blocks substituted into its right-hand side (an irreducible H is one block:
 * z_i = det(H with column i replaced by c) / det(H)). Subdeterminants, and entries of a block of
 * order >= 2, that are neither constants nor plain symbols are bound to Temps named
 * `${label}minor[rows;cols]`, `${label}det`, `${label}H[r,j]`, `${label}c[r]`, `${label}z[j]`
 * (z of a block used by a later one), in `assigns` in dependency order. Structural zeros (the
 * constant 0) are skipped, and so are zero minors. Each block's tree is built twice, expanding
 * along rows in order and along the sparsest line (the paper's "most convenient row or column",
 * section 4); the cheaper is kept (ties: rows in order). `det` is det(H): the bound det for one
 * block, else sign * the product of the blocks' dets (an expression outside `assigns`).
 * Throws a StructuralError if H is structurally singular or det(H) is identically zero.
 */
export function cramerSolve(H: readonly Expr[], c: readonly Expr[], k: number, label = ''): { assigns: Assign[]; z: Expr[]; det: Expr } {
  if (k < 1 || k > 8) throw new RangeError(`cramerSolve: order ${k} out of range 1..8 (the tree grows as 2^k)`);
  if (H.length !== k * k || c.length !== k) throw new RangeError(`cramerSolve: H has ${H.length} entries and c ${c.length}, expected ${k * k} and ${k}`);
  const blocks = diagonalBlocks(H, k);
  if (!blocks) throw singular(k, label, 'no perfect matching of rows to columns (structurally singular)');
  const pool = new TempPool(label);
  const z: (Expr | undefined)[] = new Array(k);
  const dets: Expr[] = [];
  for (const { rows, cols } of blocks) {
    const inBlock = new Set(cols);
    // right-hand side of the block: c_r - sum over solved columns l of H_rl z_l
    const rhs = rows.map((r) => {
      const known: Expr[] = [];
      for (let l = 0; l < k; l++) {
        const h = H[r * k + l];
        if (inBlock.has(l) || isConst(h, 0)) continue;
        known.push(mul(h, pool.use(z[l]!, `z[${l}]`)));
      }
      return sub(c[r], add(...known));
    });
    const b: Block = { n: rows.length, H: rows.flatMap((r) => cols.map((j) => H[r * k + j])), c: rhs, rowIds: rows, colIds: cols };
    const s = solveBlock(b, pool, blocks.length === 1 ? 'det' : '');
    if (s.det === ZERO) throw singular(k, label, `det(H) is identically zero${blocks.length > 1 ? ` (block of rows ${rows.join(', ')})` : ''}`);
    pool.adopt(s.pool);
    dets.push(s.det);
    cols.forEach((j, i) => (z[j] = s.z[i]));
  }
  const P = blocks.flatMap((b) => b.rows),
    Q = blocks.flatMap((b) => b.cols);
  // det(H) = sgn(P) sgn(Q) det(H[P, Q]), and H[P, Q] is block lower triangular
  const det = mul(parity(P) * parity(Q), ...dets);
  return { assigns: pool.assigns, z: z.map((e) => pool.lookup(e!) ?? e!), det };
}

/** operations of expressions in generated code: one rule, structure/costs.ts nodeOps */
export { expressionOps } from './costs.ts';
