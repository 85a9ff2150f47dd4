// The WebAssembly binary format: its number encodings and opcodes, for the
// straight-line translation (wasm.ts) and the hand-written kernel
// (wasm-cholesky.ts), and the module writer that lays out the sections.

/** unsigned LEB128 */
export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

/** signed LEB128 */
export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
}

/** an f64 immediate: its eight bytes, little-endian */
export const f64 = (v: number): number[] => [...new Uint8Array(new Float64Array([v]).buffer)];

/** the arity of the imported Math functions that take more than one argument */
export const ARITY: Record<string, number> = { atan2: 2, max: 2, min: 2, pow: 2 };

export const F64 = 0x7c,
  I32 = 0x7f;
export const OP = {
  localGet: 0x20,
  localSet: 0x21,
  call: 0x10,
  i32Const: 0x41,
  f64Const: 0x44,
  f64Load: 0x2b,
  f64Store: 0x39,
  i32Add: 0x6a,
  i32Shl: 0x74,
  f64Add: 0xa0,
  f64Sub: 0xa1,
  f64Mul: 0xa2,
  f64Div: 0xa3,
  f64Neg: 0x9a,
  f64Abs: 0x99,
  f64Sqrt: 0x9f,
  f64Gt: 0x64,
  f64Ne: 0x62,
  i32Eqz: 0x45,
  if: 0x04,
  end: 0x0b,
  return: 0x0f,
} as const;

const vector = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, content: number[]): number[] => [id, ...uleb(content.length), ...content];
const name = (s: string): number[] => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];

/** a module: imported Math functions first (their indices come first), then the defined functions */
export class ModuleWriter {
  private readonly imports: string[] = [];
  private readonly types: string[] = [];
  /** locals: a count of f64 locals, or groups [count, type] of a kernel (whose code has no calls to relocate) */
  private readonly defined: { type: number; locals: number | [number, number][]; body: number[] }[] = [];
  private readonly exports: [string, number][] = [];
  private pages = 1;
  private pivot: number | undefined;
  private sealed = false;

  private type(params: number[], results: number[]): number {
    const key = `${params.join(',')}:${results.join(',')}`;
    let i = this.types.indexOf(key);
    if (i < 0) i = this.types.push(key) - 1;
    return i;
  }

  /** the index of an imported Math function; imports must all be known before the first defined function is numbered */
  math(fn: string): number {
    let i = this.imports.indexOf(fn);
    if (i < 0) {
      if (this.sealed) throw new Error('import after definitions'); // never: see indices below
      i = this.imports.push(fn) - 1;
    }
    return i;
  }

  // defined functions are numbered after the imports; since imports are found while translating,
  // definitions keep provisional indices (FUNC_BASE + k) that bytes() shifts by the import count
  addFunction(params: number[], locals: number, body: number[]): number {
    this.defined.push({ type: this.type(params, []), locals, body });
    return FUNC_BASE + this.defined.length - 1;
  }

  /** a hand-written function (wasm-cholesky.ts): typed local groups, no calls */
  addKernel(k: { params: number[]; results: number[]; locals: [number, number][]; body: number[] }): number {
    this.defined.push({ type: this.type(k.params, k.results), locals: k.locals, body: k.body });
    return FUNC_BASE + this.defined.length - 1;
  }

  pivotOk(): number {
    if (this.pivot === undefined) {
      // (p, s) => |p| > w[s] ? (w[s] = |p|, 1) : |p| > 1e-9 w[s]; s a byte address; as runtime/pivot.ts's pivotOk
      const body = [
        OP.localGet,
        0,
        OP.f64Abs,
        OP.localSet,
        2,
        OP.localGet,
        2,
        OP.localGet,
        1,
        OP.f64Load,
        3,
        0,
        OP.f64Gt,
        OP.if,
        0x40,
        OP.localGet,
        1,
        OP.localGet,
        2,
        OP.f64Store,
        3,
        0,
        OP.i32Const,
        1,
        OP.return,
        OP.end,
        OP.localGet,
        2,
        OP.f64Const,
        ...f64(1e-9),
        OP.localGet,
        1,
        OP.f64Load,
        3,
        0,
        OP.f64Mul,
        OP.f64Gt,
      ];
      this.defined.push({ type: this.type([F64, I32], [I32]), locals: 1, body });
      this.pivot = FUNC_BASE + this.defined.length - 1;
    }
    return this.pivot;
  }

  addExport(name: string, index: number): void {
    this.exports.push([name, index]);
  }

  memory(pages: number): void {
    this.pages = pages;
  }

  bytes(): Uint8Array<ArrayBuffer> {
    this.sealed = true;
    const n = this.imports.length;
    const mathType = (fn: string) => this.type(Array(ARITY[fn] ?? 1).fill(F64), [F64]);
    const importEntries = this.imports.map((fn) => [...name('math'), ...name(fn), 0x00, ...uleb(mathType(fn))]);
    // provisional indices FUNC_BASE + k -> n + k, in every call instruction
    const relocate = (body: number[]) => shiftCalls(body, n);
    const types = this.types.map((key) => {
      const [params, results] = key.split(':').map((s) => (s ? s.split(',').map(Number) : []));
      return [0x60, ...vector(params.map((t) => [t])), ...vector(results.map((t) => [t]))];
    });
    const code = this.defined.map((f) => {
      const locals = typeof f.locals === 'number' ? (f.locals ? [[f.locals, F64]] : []) : f.locals;
      const body = [...vector(locals.map(([count, type]) => [...uleb(count), type])), ...(typeof f.locals === 'number' ? relocate(f.body) : f.body), OP.end];
      return [...uleb(body.length), ...body];
    });
    return new Uint8Array([
      0x00,
      0x61,
      0x73,
      0x6d,
      0x01,
      0x00,
      0x00,
      0x00,
      ...section(1, vector(types)),
      ...section(2, vector(importEntries)),
      ...section(3, vector(this.defined.map((f) => uleb(f.type)))),
      ...section(5, vector([[0x00, ...uleb(this.pages)]])),
      ...section(7, vector([[...name('memory'), 0x02, 0], ...this.exports.map(([s, i]) => [...name(s), 0x00, ...uleb(i - FUNC_BASE + n)])])),
      ...section(10, vector(code)),
    ]);
  }
}

/** provisional function indices: far above any import count, rewritten in bytes() */
const FUNC_BASE = 1 << 20;

/** rewrites `call FUNC_BASE + k` to `call imports + k` in straight-line code (the only calls with large indices) */
function shiftCalls(body: number[], imports: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < body.length;) {
    const op = body[i];
    out.push(op);
    i++;
    const skipLeb = () => {
      while (body[i] & 0x80) out.push(body[i++]);
      out.push(body[i++]);
    };
    if (op === OP.call) {
      let v = 0,
        shift = 1,
        j = i;
      for (;;) {
        const b = body[j++];
        v += (b & 0x7f) * shift;
        shift *= 128;
        if (!(b & 0x80)) break;
      }
      out.push(...uleb(v >= FUNC_BASE ? v - FUNC_BASE + imports : v));
      i = j;
    } else if (op === OP.f64Const) {
      out.push(...body.slice(i, i + 8));
      i += 8;
    } else if (op === OP.i32Const || op === OP.localGet || op === OP.localSet) skipLeb();
    else if (op === OP.f64Load || op === OP.f64Store) {
      skipLeb(); // align
      skipLeb(); // offset
    } else if (op === OP.if) out.push(body[i++]); // block type
  }
  return out;
}
