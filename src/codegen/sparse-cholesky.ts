// The run-time factorisation of a sparse torn mass matrix, unrolled: the
// pattern (structure/sparse-pattern.ts, chosen by the planner) printed as
// straight-line code, the same operations in the same order as the
// run-time solve (runtime/cholesky.ts sparseCholeskySolve), which walks the
// pattern's lists when the pattern is too large to unroll.
import type { SparseCholesky } from '../structure/sparse-pattern.ts';
import type { Part } from './program.ts';

/** straight-line factorisations up to this many updates of the later block (a chain of 16: 680; the humanoid: 818) */
const UNROLL_UP_TO = 2000;

/** the pattern of a dense k x k H in natural order, for unrolledCholesky */
export function densePattern(k: number): Pick<SparseCholesky, 'order' | 'start' | 'rows'> {
  const order = Array.from({ length: k }, (_, i) => i),
    start = [0],
    rows: number[] = [];
  for (let j = 0; j < k; j++) start.push(rows.push(...order.slice(j + 1)));
  return { order, start, rows };
}

/** characters per piece of an unrolled factorisation: V8 optimises no function of more than ~60 KB of bytecode */
const PIECE_CHARS = 10000;

/**
 * runtime/cholesky.ts sparseCholeskySolve(k, A, b, order, start, rows, d) unrolled for
 * one pattern, the same operations in the same order (the same result to the
 * bit): `function name(A, b, d)`, calling pieces `name_i(A, b, d, small)`
 * that return the smallest pivot ratio so far, or the failure code (<= 0).
 * Constant indices and no loop: on the humanoid's 32 x 32 H the loops spent
 * ~1.5 ns per operation on indirection. Returned as a part of the generated
 * module (program.ts; its code in `s`); undefined when the pattern is too
 * large for straight-line code.
 */
export function unrolledCholesky(name: string, k: number, p: Pick<SparseCholesky, 'order' | 'start' | 'rows'>): Extract<Part, { k: 'code' }> | undefined {
  const later = (q: number) => p.rows.slice(p.start[q], p.start[q + 1]);
  let updates = 0;
  for (let q = 0; q < k; q++) updates += (later(q).length * (later(q).length + 1)) / 2;
  if (updates > UNROLL_UP_TO) return undefined;
  const a = (i: number, j: number) => `A[${i * k + j}]`;
  // groups of lines that share the temporaries s and x: a piece ends between groups only
  const groups: string[][] = [Array.from({ length: k }, (_, j) => `d[${j}] = ${a(j, j)};`)];
  p.order.forEach((j, q) => {
    // the diagonal in a local and the ratio taken every time: a branch that runs late
    // (a new smallest pivot, at the 20,000th evaluation) would find no type feedback
    // for its loads and division, and V8 would throw the function's optimised code away
    const rows = later(q),
      g = [`x = d[${j}]; if (!(x > 0 && x < Infinity)) return x < 0 ? 0 : -1;`];
    g.push(`s = ${a(j, j)};`, `if (!(s > tiny * x)) return s < -tiny * x ? 0 : -1;`);
    g.push(`small = Math.min(small, s / x);`, `l = Math.sqrt(s); inv = 1 / l; ${a(j, j)} = l; d[${j}] = inv;`);
    for (const i of rows) g.push(`${a(i, j)} *= inv;`);
    rows.forEach((i, at) => {
      for (const r of rows.slice(0, at)) g.push(`${a(i, r)} -= ${a(i, j)} * ${a(r, j)};`);
      g.push(`${a(i, i)} -= ${a(i, j)} * ${a(i, j)};`);
    });
    groups.push(g);
  });
  p.order.forEach((j, q) => groups.push([`x = (b[${j}] *= d[${j}]);`, ...later(q).map((i) => `b[${i}] -= ${a(i, j)} * x;`)]));
  for (let q = k - 1; q >= 0; q--) {
    const j = p.order[q];
    groups.push([`s = b[${j}];`, ...later(q).map((i) => `s -= ${a(i, j)} * b[${i}];`), `b[${j}] = s * d[${j}];`]);
  }
  const pieces: string[][] = [[]];
  let size = 0;
  for (const g of groups) {
    const chars = g.reduce((n, l) => n + l.length + 3, 0);
    if (size + chars > PIECE_CHARS && pieces[pieces.length - 1].length) (pieces.push([]), (size = 0));
    pieces[pieces.length - 1].push(...g);
    size += chars;
  }
  // one piece (the PUMA's 6 x 6, a tree's H) runs on locals; pieces of a larger H stay on the
  // arrays: each would load and store ~200 entries, and the humanoid's 32 x 32 ran 5% slower so
  if (pieces.length === 1) pieces[0] = onLocals(pieces[0]);
  const head = [`const tiny = choleskyTiny(${k});`, 'let s = 0, l = 0, inv = 0, x = 0;'];
  const body = (lines: string[]) => lines.map((l) => `  ${l}`).join('\n');
  const calls = pieces.map((_, i) => `small = ${name}_${i}(A, b, d, small);\nif (small <= 0) return small;`);
  const s = [
    ...pieces.map((lines, i) => `function ${name}_${i}(A, b, d, small) {\n${body([...head, ...lines])}\n  return small;\n}`),
    `function ${name}(A, b, d) {\n${body(['let small = 1;', ...calls.join('\n').split('\n'), 'return small;'])}\n}`,
  ].join('\n');
  // a part of the generated module (program.ts), listed among its functions by its first piece
  return { k: 'code', s, fn: `${name}_0` };
}

/** an entry of A, b or d with a constant index */
const ENTRY = /\b([Abd])\[(\d+)\]/g;

/**
 * A factorisation's lines on locals: every entry of A, b and d it touches is
 * loaded once at its start and, if assigned, stored once at its end (where the
 * caller reads it). An early return (a failed pivot) skips the
 * stores: A and b are formed again for LU then. V8 then keeps the
 * factorisation in registers, with no bounds check per operation: the PUMA's
 * 6 x 6 took 0.75 of its time and half of its optimising compile (22 ms in
 * a 10 s run's 0.35 s), the same operations in the same order.
 */
function onLocals(lines: readonly string[]): string[] {
  const loads = new Set<string>(),
    stores = new Set<string>();
  const local = (a: string, i: string) => `${a}_${i}`;
  const body = lines.map((l) =>
    l.replace(ENTRY, (_, a: string, i: string) => {
      loads.add(`${local(a, i)} = ${a}[${i}]`);
      return local(a, i);
    }),
  );
  for (const l of body) for (const m of l.matchAll(/\b([Abd])_(\d+) *[-+*/]?=(?!=)/g)) stores.add(`${m[1]}[${m[2]}] = ${local(m[1], m[2])};`);
  const out = loads.size ? [`let ${[...loads].join(', ')};`, ...body, ...stores] : body;
  // a piece of one large group (a pivot of a dense 20 x 20) would outgrow V8's bound: it stays on the arrays
  return out.reduce((n, l) => n + l.length + 3, 0) <= PIECE_CHARS + 1000 ? out : [...lines];
}
