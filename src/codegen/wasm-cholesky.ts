// The dense Cholesky solve of the WebAssembly target: runtime/cholesky.ts's
// choleskySolve(n, A, b) as a WebAssembly function over the module's memory,
// operation for operation, so that its results are those of the JavaScript
// bit for bit. Its dot products keep the four partial sums of rowDot as two
// f64x2 accumulators (lanes s0 s1 and s2 s3: the same multiplications and
// additions, in the same order) and end as rowDot does, s0 + s1 + (s2 + s3).
//
// Why: a torn H of 64 (the chain of 64) took 42-48 µs in JavaScript, as long
// as MuJoCo C's whole mj_forward; the column loop here takes two rows at once
// against the pivot row (four independent accumulators, the pivot row loaded
// once for both), which the JavaScript loop cannot express.
//
// (n, a, b, tiny) => rcond | 0 | -1, as choleskySolve: a and b are byte
// addresses of A (n x n, row-major, lower triangle read) and b; tiny is
// runtime/cholesky.ts's choleskyTiny(n), as choleskySolve takes it.

import { f64, uleb } from './wasm-binary.ts';

const I32 = 0x7f,
  F64 = 0x7c,
  V128 = 0x7b;
const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  return: 0x0f,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  f64Load: 0x2b,
  f64Store: 0x39,
  i32Const: 0x41,
  f64Const: 0x44,
  i32Eqz: 0x45,
  i32LtS: 0x48,
  i32GeS: 0x4e,
  f64Lt: 0x63,
  f64Gt: 0x64,
  i32And: 0x71,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32Shl: 0x74,
  f64Neg: 0x9a,
  f64Sqrt: 0x9f,
  f64Add: 0xa0,
  f64Sub: 0xa1,
  f64Mul: 0xa2,
  f64Div: 0xa3,
  f64Min: 0xa4,
  simd: 0xfd,
} as const;
/** SIMD opcodes after the 0xfd prefix, LEB128-encoded */
const SIMD = {
  v128Load: [0x00],
  v128Store: [0x0b],
  v128Const: [0x0c],
  f64x2Splat: [0x14],
  f64x2ExtractLane: [0x21],
  f64x2Add: [0xf0, 0x01],
  f64x2Sub: [0xf1, 0x01],
  f64x2Mul: [0xf2, 0x01],
} as const;

/** rows taken together against the pivot row (four independent f64x2 accumulators; 3 and 4 measured no faster) */
const GROUP = 2;
// the locals: parameters first, then the declared groups (i32, f64, v128)
const n = 0,
  A = 1,
  B = 2,
  tiny = 3;
const j = 4,
  i = 5,
  k = 6,
  rowJ = 7,
  end = 8,
  at = 9;
const rows = [10, 11];
const small = 12,
  ajj = 13,
  s = 14,
  inv = 15,
  t = 16,
  u = 17;
const accs: [number, number][] = [
  [18, 19],
  [20, 21],
];
/** the pivot row's two halves of a step, loaded once for all rows */
const halves = [22, 23];
const LOCALS: [number, number][] = [
  [8, I32],
  [6, F64],
  [accs.length * 2 + halves.length, V128],
];

const get = (l: number) => [OP.localGet, l];
const set = (l: number) => [OP.localSet, l];
const tee = (l: number) => [OP.localTee, l];
const load = (offset = 0) => [OP.f64Load, 3, ...uleb(offset)];
const store = (offset = 0) => [OP.f64Store, 3, ...uleb(offset)];
const simd = (op: readonly number[], ...imm: number[]) => [OP.simd, ...op, ...imm];
const load2 = (offset: number) => simd(SIMD.v128Load, 3, ...uleb(offset));
const store2 = () => simd(SIMD.v128Store, 3, 0);
const zero2 = () => simd(SIMD.v128Const, ...Array(16).fill(0));
const lane = (l: number) => simd(SIMD.f64x2ExtractLane, l);
/** while (cond) body: cond leaves an i32 */
const whileLoop = (cond: number[], body: number[]) => [OP.block, 0x40, OP.loop, 0x40, ...cond, OP.i32Eqz, OP.brIf, 1, ...body, OP.br, 0, OP.end, OP.end];
/** x8: an element index to a byte count */
const bytes = (code: number[]) => [...code, OP.i32Const, 3, OP.i32Shl];
/** the address of row r: A + r n 8 */
const row = (r: number) => [...get(A), ...bytes([...get(r), ...get(n), OP.i32Mul]), OP.i32Add];

/**
 * rowDot's partial sums over k < m in steps of four, of each row in `rows`
 * against the row at `against`: acc[0] holds s0 s1, acc[1] s2 s3; k is left
 * where the scalar tail starts
 */
function blocked(rows: { row: number; acc: [number, number] }[], against: number, m: number): number[] {
  const out: number[] = [];
  for (const r of rows) out.push(...zero2(), ...set(r.acc[0]), ...zero2(), ...set(r.acc[1]));
  out.push(OP.i32Const, 0, ...set(k));
  // at = against + k 8: the pivot row's four entries loaded once, as two halves
  const step: number[] = [
    ...get(against),
    ...bytes(get(k)),
    OP.i32Add,
    ...tee(at),
    ...load2(0),
    ...set(halves[0]),
    ...get(at),
    ...load2(16),
    ...set(halves[1]),
  ];
  for (const r of rows) {
    for (const [half, offset] of [
      [0, 0],
      [1, 16],
    ] as const) {
      step.push(...get(r.acc[half]));
      step.push(...get(r.row), ...bytes(get(k)), OP.i32Add, ...load2(offset));
      step.push(...get(halves[half]), ...simd(SIMD.f64x2Mul), ...simd(SIMD.f64x2Add), ...set(r.acc[half]));
    }
  }
  step.push(...get(k), OP.i32Const, 4, OP.i32Add, ...set(k));
  out.push(...whileLoop([...get(k), OP.i32Const, 3, OP.i32Add, ...get(m), OP.i32LtS], step));
  return out;
}

/** s0 + tail over k < m, then s0 + s1 + (s2 + s3): rowDot's end, for one row; leaves the dot on the stack */
function finish(rowAddr: number, acc: [number, number], against: number, m: number): number[] {
  const tail = [
    ...get(t),
    ...get(rowAddr),
    ...bytes(get(k)),
    OP.i32Add,
    ...load(),
    ...get(against),
    ...bytes(get(k)),
    OP.i32Add,
    ...load(),
    OP.f64Mul,
    OP.f64Add,
    ...set(t),
    ...get(k),
    OP.i32Const,
    1,
    OP.i32Add,
    ...set(k),
  ];
  return [
    ...get(acc[0]),
    ...lane(0),
    ...set(t),
    ...whileLoop([...get(k), ...get(m), OP.i32LtS], tail),
    ...get(t),
    ...get(acc[0]),
    ...lane(1),
    OP.f64Add,
    ...get(acc[1]),
    ...lane(0),
    ...get(acc[1]),
    ...lane(1),
    OP.f64Add,
    OP.f64Add,
  ];
}

/** A[r][j] = (A[r][j] - dot) * inv, the dot on the stack (kept in u) */
const column = (rowAddr: number) => [
  ...set(u),
  ...get(rowAddr),
  ...bytes(get(j)),
  OP.i32Add,
  ...tee(at),
  ...get(at),
  ...load(),
  ...get(u),
  OP.f64Sub,
  ...get(inv),
  OP.f64Mul,
  ...store(),
];

/** return x < y ? 0 : -1, choleskySolve's verdicts (0 indefinite, -1 singular) */
const verdict = (x: number[], y: number[]) => [...x, ...y, OP.f64Lt, OP.if, F64, OP.f64Const, ...f64(0), OP.else, OP.f64Const, ...f64(-1), OP.end, OP.return];

function factor(): number[] {
  // the pivot: s = ajj - rowDot(j, j, j); the tests of choleskySolve, in its order
  const pivot = [
    ...row(j),
    ...set(rowJ),
    ...get(rowJ),
    ...bytes(get(j)),
    OP.i32Add,
    ...load(),
    ...set(ajj),
    ...blocked([{ row: rowJ, acc: accs[0] }], rowJ, j),
    ...get(ajj),
    ...finish(rowJ, accs[0], rowJ, j),
    OP.f64Sub,
    ...set(s),
    // if (!(ajj > 0 && ajj < Infinity)) return ajj < 0 ? 0 : -1
    ...get(ajj),
    OP.f64Const,
    ...f64(0),
    OP.f64Gt,
    ...get(ajj),
    OP.f64Const,
    ...f64(Infinity),
    OP.f64Lt,
    OP.i32And,
    OP.i32Eqz,
    OP.if,
    0x40,
    ...verdict(get(ajj), [OP.f64Const, ...f64(0)]),
    OP.end,
    // if (!(s > tiny * ajj)) return s < -tiny * ajj ? 0 : -1
    ...get(s),
    ...get(tiny),
    ...get(ajj),
    OP.f64Mul,
    OP.f64Gt,
    OP.i32Eqz,
    OP.if,
    0x40,
    ...verdict(get(s), [...get(tiny), OP.f64Neg, ...get(ajj), OP.f64Mul]),
    OP.end,
    ...get(small),
    ...get(s),
    ...get(ajj),
    OP.f64Div,
    OP.f64Min,
    ...set(small),
    // d = sqrt(s), inv = 1 / d, A[j][j] = d
    ...get(rowJ),
    ...bytes(get(j)),
    OP.i32Add,
    ...get(s),
    OP.f64Sqrt,
    ...tee(t),
    ...store(),
    OP.f64Const,
    ...f64(1),
    ...get(t),
    OP.f64Div,
    ...set(inv),
  ];
  // the rows below the pivot, GROUP at a time against row j (then one at a time): the blocked
  // sums share k, so each row's tail starts from a copy of it
  const group = (count: number) => {
    const members = rows.slice(0, count).map((r, g) => ({ row: r, acc: accs[g] }));
    const code = members.flatMap((m, g) => [...row(i), ...(g ? [...get(n), ...bytes([OP.i32Const, g]), OP.i32Mul, OP.i32Add] : []), ...set(m.row)]);
    code.push(...blocked(members, rowJ, j), ...get(k), ...set(end));
    for (const m of members) code.push(...get(end), ...set(k), ...finish(m.row, m.acc, rowJ, j), ...column(m.row));
    code.push(...get(i), OP.i32Const, count, OP.i32Add, ...set(i));
    return code;
  };
  const columnJ = [
    ...pivot,
    ...get(j),
    OP.i32Const,
    1,
    OP.i32Add,
    ...set(i),
    ...whileLoop([...get(i), OP.i32Const, GROUP - 1, OP.i32Add, ...get(n), OP.i32LtS], group(GROUP)),
    ...whileLoop([...get(i), ...get(n), OP.i32LtS], group(1)),
    ...get(j),
    OP.i32Const,
    1,
    OP.i32Add,
    ...set(j),
  ];
  return [OP.f64Const, ...f64(1), ...set(small), OP.i32Const, 0, ...set(j), ...whileLoop([...get(j), ...get(n), OP.i32LtS], columnJ)];
}

/** L y = b, then L^T x = y, in choleskySolve's order: forward by rowDot, backward by rows of L */
function substitution(): number[] {
  const bAt = (idx: number) => [...get(B), ...bytes(get(idx)), OP.i32Add];
  const diag = [...get(A), ...bytes([...get(i), ...get(n), OP.i32Mul, ...get(i), OP.i32Add]), OP.i32Add, ...load()];
  // b[i] = (b[i] - rowDot(A, i n, b, 0, i)) / A[i][i]
  const forward = [
    ...row(i),
    ...set(rows[0]),
    ...blocked([{ row: rows[0], acc: accs[0] }], B, i),
    ...bAt(i),
    ...bAt(i),
    ...load(),
    ...finish(rows[0], accs[0], B, i),
    OP.f64Sub,
    ...diag,
    OP.f64Div,
    ...store(),
    ...get(i),
    OP.i32Const,
    1,
    OP.i32Add,
    ...set(i),
  ];
  // b[k] -= A[i n + k] x for k < i, two at a time (each entry's one subtraction, as the JavaScript loop's)
  const pairStep = [
    ...bAt(k),
    ...bAt(k),
    ...simd(SIMD.v128Load, 3, 0),
    ...get(rows[0]),
    ...bytes(get(k)),
    OP.i32Add,
    ...simd(SIMD.v128Load, 3, 0),
    ...get(halves[0]),
    ...simd(SIMD.f64x2Mul),
    ...simd(SIMD.f64x2Sub),
    ...store2(),
    ...get(k),
    OP.i32Const,
    2,
    OP.i32Add,
    ...set(k),
  ];
  const lastStep = [...bAt(k), ...bAt(k), ...load(), ...get(rows[0]), ...bytes(get(k)), OP.i32Add, ...load(), ...get(s), OP.f64Mul, OP.f64Sub, ...store()];
  const backward = [
    // x = b[i] = b[i] / A[i][i]
    ...bAt(i),
    ...bAt(i),
    ...load(),
    ...diag,
    OP.f64Div,
    ...tee(s),
    ...store(),
    ...get(s),
    ...simd(SIMD.f64x2Splat),
    ...set(halves[0]),
    ...row(i),
    ...set(rows[0]),
    OP.i32Const,
    0,
    ...set(k),
    ...whileLoop([...get(k), OP.i32Const, 1, OP.i32Add, ...get(i), OP.i32LtS], pairStep),
    ...get(k),
    ...get(i),
    OP.i32LtS,
    OP.if,
    0x40,
    ...lastStep,
    OP.end,
    ...get(i),
    OP.i32Const,
    1,
    OP.i32Sub,
    ...set(i),
  ];
  return [
    OP.i32Const,
    0,
    ...set(i),
    ...whileLoop([...get(i), ...get(n), OP.i32LtS], forward),
    ...get(n),
    OP.i32Const,
    1,
    OP.i32Sub,
    ...set(i),
    ...whileLoop([...get(i), OP.i32Const, 0, OP.i32GeS], backward),
  ];
}

/** the function: its parameter and result types, local groups and code (no calls: nothing to relocate) */
export function choleskyKernel(): { params: number[]; results: number[]; locals: [number, number][]; body: number[] } {
  return { params: [I32, I32, I32, F64], results: [F64], locals: LOCALS, body: [...factor(), ...substitution(), ...get(small)] };
}
