// The WebAssembly target (compile option `target: 'wasm'`, `--target wasm`):
// the straight-line generated functions — the assignments of the relaxed
// elimination, the kinematics, the causal sequences, every function of
// `const`s and workspace stores (generate.ts, Module.assigns) — become
// WebAssembly functions over one linear memory holding w, x, u and p, emitted
// directly as binary (no toolchain at run time). What is not straight-line
// (a linear solve, Newton, a relaxed loop's torn fallback) stays JavaScript
// and runs on the same memory through a Float64Array view, so one
// derivatives() interleaves both. The values are those of the JavaScript
// code bit for bit: the same IEEE operations in the same order, and the
// same Math functions (imported); compile() checks it at two states.
//
// Why: V8 compiles WebAssembly's f64 locals to registers and its memory
// accesses without the map and bounds checks of a JavaScript array: the
// relaxed form in 0.72-0.78x the JavaScript target's time (chains n = 8...256,
// the PUMA; README, WebAssembly target), within 1.04x after a typed-array
// detach. The torn form gains less: its solve stays JavaScript.
//
// This reads the IR (ir.ts) of the generated module's straight-line functions
// (Generated.ir): `const v = <value>;`, `w[i] = <value>;` and pivot checks,
// with values of numbers, locals, elements w[i], x[o + i], u[i], p[i],
// + - * /, unary minus and Math functions. A function with any other
// statement, or without IR, stays JavaScript. The values are evaluated as
// JavaScript evaluates their printed text (wasm-tree.ts), so the results are
// the same bit for bit. Which functions the module has, which derivatives()
// calls in which order, and its dense solves are read from the module's
// description (program.ts), and the JavaScript that runs beside the
// WebAssembly is printed from it by the module's printer with three hooks: a
// translated function's body is a call of its export, an array of the arena
// is a view of the memory, a dense solve of the arena calls the kernel.
import type { Generated } from './generate.ts';
import { type Elem, type Fn, type Value, printFn } from './ir.ts';
import { type Hooks, type Program, calleeOf, callText, printLine, printModule, resolve } from './program.ts';
import { type Tree, parseTree } from './wasm-tree.ts';
import { choleskyKernel } from './wasm-cholesky.ts';
import { ARITY, F64, I32, ModuleWriter, OP, f64, sleb, uleb } from './wasm-binary.ts';
import { choleskyTiny } from './runtime.ts';

/** the arrays in the memory: w, x, u, p, and the arena's H and c by name */
type Arrays = string;

/** a derivatives() whose straight-line parts run as WebAssembly; `w` is the memory's view */
export interface WasmTarget {
  /** the compiled module (one per compiled model) */
  module: WebAssembly.Module;
  /** functions that became WebAssembly, of all the functions derivatives() calls */
  translated: number;
  called: number;
  /** the functions that stay JavaScript, with the reason (a linear solve, Newton, a fallback, ...) */
  kept: Record<string, string>;
  /** the memory's layout in doubles: w from 0, then x, u, p */
  base: Record<Arrays, number>;
  /** the JavaScript of derivatives(), with runs of WebAssembly calls as seg0(t), seg1(t), ... */
  driver: string;
  /**
   * the H and c of the module's dense Cholesky solves (choleskySolve(k, H, c), k >= KERNEL_MIN)
   * placed in the memory after x, u and p (first double of each, by name): the functions that
   * fill them become WebAssembly and the solve runs as WebAssembly (wasm-cholesky.ts)
   */
  arena?: Record<string, number>;
  /** the generated module for an instance (instantiate()): its translated functions call their exports */
  source: string;
}

const MATH = ['sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'exp', 'log', 'sign', 'sinh', 'cosh', 'tanh', 'max', 'min', 'pow'] as const;

/** the generated code as WebAssembly where it is straight-line; a string says why not at all */
export function wasmTarget(generated: Generated): WasmTarget | string {
  const { program, layout } = generated;
  if (!program) return 'no description of the generated module (generated without its IR)';
  const ir = new Map((generated.ir ?? []).map((f) => [f.name, f]));
  // the module's functions of (t, x, u, p, w[, offsets]) in order, outputs() the last; the straight-line ones have IR
  const functions = [...program.parts.flatMap((q) => (q.k === 'straight' || q.k === 'lines' ? [q.name] : [])), 'outputs'];
  const missing = program.parts.flatMap((q) => (q.k === 'straight' && !ir.has(q.name) ? [q.name] : []));
  if (missing.length) return `no IR of the straight-line function ${missing[0]}`;
  const known = new Set(functions);
  const base: Record<Arrays, number> = { w: 0, x: layout.workspace.length, u: 0, p: 0 };
  base.u = base.x + layout.states.length;
  base.p = base.u + layout.inputs.length;
  const words = base.p + layout.parameters.length;
  const { arena, end } = denseCholesky(program, words);
  Object.assign(base, arena);

  const enc = new ModuleWriter();
  if (arena) enc.addExport('cholesky', enc.addKernel(choleskyKernel()));
  const bodies = new Map<string, number | undefined>(); // function name -> its WebAssembly index, or undefined: JavaScript
  const kept: Record<string, string> = {};
  const compiledIndex = (name: string): number | undefined => {
    if (bodies.has(name)) return bodies.get(name);
    const f = ir.get(name);
    const code = f ? translateFunction(f, base, enc) : known.has(name) ? 'not straight-line' : 'not a function of the module';
    if (typeof code === 'string') kept[name] = code;
    const index = typeof code === 'string' ? undefined : enc.addFunction(code.params, code.locals, code.body);
    if (index !== undefined) enc.addExport(name, index); // for the JavaScript functions that call it
    bodies.set(name, index);
    return index;
  };
  // every generated function, also those only a solve, a fallback or outputs() calls
  for (const name of functions) compiledIndex(name);
  const { driver, called, translated } = driverOf(program, enc, compiledIndex);
  if (translated === 0) return 'no function of derivatives() is straight-line';
  enc.memory(Math.ceil((end * 8) / 65536) + 1);
  const module = new WebAssembly.Module(enc.bytes());
  const source = printModule(program, instanceHooks(ir, new Set([...bodies].flatMap(([name, i]) => (i === undefined ? [] : [name]))), arena));
  return { module, translated, called, kept, base, driver, ...(arena && { arena }), source };
}

/**
 * derivatives() as the driver: each run of calls of translated functions one
 * exported WebAssembly function seg0(t), seg1(t), ...; every other line stays
 * JavaScript, its calls of the module's functions through `fns`
 */
function driverOf(
  program: Program,
  enc: ModuleWriter,
  compiledIndex: (name: string) => number | undefined,
): { driver: string; called: number; translated: number } {
  const driver: string[] = [];
  let segment: number[] = [];
  let segments = 0,
    called = 0,
    translated = 0;
  const close = () => {
    if (!segment.length) return;
    const name = `seg${segments++}`;
    enc.addExport(name, enc.addFunction([F64], 0, segment));
    driver.push(`segs.${name}(t);`);
    segment = [];
  };
  const viaFns = { call: (fn: string) => `fns.${callText(program, fn)}` };
  for (const line of [...program.derivatives, ...program.tail]) {
    const callee = calleeOf(line);
    const call = callee === undefined ? undefined : resolve(program, callee);
    if (call) called++;
    const index = call ? compiledIndex(call.fn) : undefined;
    if (call && index !== undefined) {
      translated++;
      segment.push(OP.localGet, 0, ...call.offsets.flatMap((o) => [OP.i32Const, ...sleb(o)]), OP.call, ...uleb(index));
      continue;
    }
    const text = printLine(line, program, viaFns).trim();
    if (!text) continue;
    close();
    driver.push(text);
  }
  close();
  return { driver: driver.join('\n'), called, translated };
}

/** dense solves smaller than this stay JavaScript: a module's factorisation of 6 or 12 is unrolled (sparse-cholesky.ts) */
const KERNEL_MIN = 16;

/**
 * The arena: the H and c of each dense solve choleskySolve(k, H, c) with
 * k >= KERNEL_MIN whose H and c the module declares as arrays of doubles,
 * after the words of w, x, u, p, each 16-byte aligned; and the memory's end.
 */
function denseCholesky(program: Program, words: number): { arena?: Record<string, number>; end: number } {
  const declared = new Map<string, number>();
  for (const q of program.parts) if (q.k === 'arrays') for (const [a, n] of q.arrays) if (typeof n === 'number') declared.set(a, n);
  const arena: Record<string, number> = {};
  let end = words;
  for (const q of program.parts) {
    if (q.k !== 'lines') continue;
    for (const line of q.lines) {
      if (typeof line === 'string') continue;
      for (const piece of line.pieces) {
        if (typeof piece !== 'object' || !('solve' in piece)) continue;
        const [k, H, c] = piece.solve;
        if (k < KERNEL_MIN || !declared.has(H) || !declared.has(c) || H in arena) continue;
        for (const name of [H, c]) {
          end += end % 2;
          arena[name] = end;
          end += declared.get(name)!;
        }
      }
    }
  }
  return Object.keys(arena).length ? { arena, end } : { end };
}

/**
 * How an instance's JavaScript differs from the module's: each translated
 * function's body calls its WebAssembly (so that a solve or a fallback that
 * calls the causal sequence runs it there too); with an arena, its H and c
 * are views of the memory where the module placed them, and their solves
 * call the kernel with their byte addresses and choleskySolve's tolerance
 * (the same pivot tests and results, bit for bit).
 */
function instanceHooks(ir: ReadonlyMap<string, Fn>, translated: ReadonlySet<string>, arena?: Record<string, number>): Hooks {
  const straight = (name: string) => {
    const f = ir.get(name)!;
    if (!translated.has(name)) return printFn(f);
    const offsets = f.params
      .slice(5)
      .map((o) => `, ${o}`)
      .join('');
    return `function ${name}(${f.params.join(', ')}) {\n  wasm.${name}(t${offsets});\n}`;
  };
  if (!arena) return { straight };
  return {
    straight,
    array: (name, n) => (Object.hasOwn(arena, name) ? `${name} = mem.subarray(${arena[name]}, ${arena[name] + n})` : `${name} = doubles(${n})`),
    solve: (k, H, c) =>
      Object.hasOwn(arena, H) && Object.hasOwn(arena, c)
        ? `cholesky(${k}, ${arena[H] * 8}, ${arena[c] * 8}, ${choleskyTiny(k)})`
        : `choleskySolve(${k}, ${H}, ${c})`,
  };
}

/** the kernel alone on a memory of `pages` 64 KiB pages: for its tests and timing */
export function choleskyKernelInstance(pages: number): { memory: WebAssembly.Memory; cholesky: (n: number, a: number, b: number, tiny: number) => number } {
  const enc = new ModuleWriter();
  enc.addExport('cholesky', enc.addKernel(choleskyKernel()));
  enc.memory(pages);
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(enc.bytes()), { math: {} });
  return exports as unknown as ReturnType<typeof choleskyKernelInstance>;
}

/**
 * An instance of the module for one state: its memory's view is the
 * workspace, and the generated JavaScript is evaluated again for it as the
 * target printed it (instanceHooks); derivatives() runs the driver,
 * outputs() that module's outputs, both after copying x, u and p into the
 * memory.
 */
export function instantiate(target: WasmTarget, fail: unknown, words: number) {
  const math = Object.fromEntries(MATH.map((m) => [m, Math[m]]));
  const instance = new WebAssembly.Instance(target.module, { math });
  const memory = instance.exports.memory as WebAssembly.Memory;
  const mem = new Float64Array(memory.buffer);
  const w = mem.subarray(0, words);
  const exported = instance.exports as Record<string, unknown>;
  const js = new Function('fail', 'wasm', 'mem', 'cholesky', target.source)(fail, exported, mem, exported.cholesky) as {
    outputs: (...a: unknown[]) => void;
    functions: Record<string, unknown>;
  };
  const { x: X, u: U, p: P } = target.base;
  const load = `mem.set(x, ${X});\nif (u.length) mem.set(u, ${U});\nif (p.length) mem.set(p, ${P});`;
  const make = new Function(
    'mem',
    'segs',
    'fns',
    'fail',
    'jsOutputs',
    `return [function derivatives(t, x, dx, u, p, w) {
${load}
${target.driver}
}, function outputs(t, x, u, p, w) {
${load}
jsOutputs(t, x, u, p, w);
}];`,
  );
  const [derivatives, outputs] = make(mem, exported, js.functions, fail, js.outputs) as ((...a: unknown[]) => void)[];
  return { w, derivatives, outputs, functions: js.functions };
}

/** one straight-line function as WebAssembly (params t, then its offsets), or why it stays JavaScript */
function translateFunction(f: Fn, base: Record<Arrays, number>, enc: ModuleWriter): { params: number[]; locals: number; body: number[] } | string {
  const [t, x, u, p, w, ...offsets] = f.params;
  if (t !== 't' || x !== 'x' || u !== 'u' || p !== 'p' || w !== 'w') return `parameters ${f.params.join(', ')}`;
  const locals = new Map<string, number>([['t', 0], ...offsets.map((o, i) => [o, i + 1] as [string, number])]);
  const body: number[] = [];
  const local = (name: string) => {
    if (!locals.has(name)) locals.set(name, locals.size);
    return locals.get(name)!;
  };
  try {
    for (const st of f.body) {
      if (st.k === 'const') {
        const value = expression(st.v, locals, base, enc);
        body.push(...value, OP.localSet, ...uleb(local(st.name)));
      } else if (st.k === 'store' && !INPUTS.has(st.to.a)) {
        // into w or an arena array (element() refuses any other)
        const { address, offset } = element(st.to, locals, base);
        body.push(...address, ...expression(st.v, locals, base, enc), OP.f64Store, 3, ...uleb(offset));
      } else if (st.k === 'pivot' && st.flag.o === undefined) {
        // the pivot: a local, or an element when its value was computed elsewhere (a shared temporary)
        body.push(...expression(st.v, locals, base, enc), OP.i32Const, ...sleb(st.scale * 8), OP.call, ...uleb(enc.pivotOk()), OP.i32Eqz);
        body.push(OP.if, 0x40, OP.i32Const, 0, OP.f64Const, ...f64(1), OP.f64Store, 3, ...uleb(st.flag.i * 8), OP.end);
      } else return `not straight-line: ${st.k}`;
    }
  } catch (e) {
    return `${e instanceof Error ? e.message : String(e)}`; // a value outside what WebAssembly reads here
  }
  return { params: [F64, ...offsets.map(() => I32)], locals: locals.size - 1 - offsets.length, body };
}

/** the arrays the generated code only reads */
const INPUTS = new Set(['x', 'u', 'p']);

/** w[o0 + 17], x[3]: the address on the stack (offsets shifted to bytes) and the constant byte offset */
function element(e: Elem, locals: Map<string, number>, base: Record<Arrays, number>): { address: number[]; offset: number } {
  if (!Object.hasOwn(base, e.a)) throw new Error(`array ${e.a}`);
  const c = base[e.a as Arrays] + e.i;
  if (e.o === undefined) return { address: [OP.i32Const, 0], offset: c * 8 };
  if (!locals.has(e.o)) throw new Error(`offset ${e.o}`);
  return { address: [OP.localGet, ...uleb(locals.get(e.o)!), OP.i32Const, 3, OP.i32Shl], offset: c * 8 };
}

const BINARY = { '+': OP.f64Add, '-': OP.f64Sub, '*': OP.f64Mul, '/': OP.f64Div } as const;

/** a value as stack code, in the order (and grouping) JavaScript evaluates its printed text */
function expression(v: Value, locals: Map<string, number>, base: Record<Arrays, number>, enc: ModuleWriter): number[] {
  const emit = (t: Tree): number[] => {
    switch (t.op) {
      case 'leaf': {
        const l = t.v;
        if (l.k === 'num') return [OP.f64Const, ...f64(l.v)];
        if (l.k === 'elem') {
          const { address, offset } = element(l, locals, base);
          return [...address, OP.f64Load, 3, ...uleb(offset)];
        }
        if (!locals.has(l.s)) throw new Error(`unknown ${l.s}`);
        return [OP.localGet, ...uleb(locals.get(l.s)!)];
      }
      case 'group':
        return emit(t.a);
      case 'neg':
        return [...emit(t.a), OP.f64Neg];
      case 'call': {
        const name = t.fn.startsWith('Math.') ? t.fn.slice(5) : t.fn;
        const args = t.args.map(emit);
        if (name === 'abs' && args.length === 1) return [...args[0], OP.f64Abs];
        if (name === 'sqrt' && args.length === 1) return [...args[0], OP.f64Sqrt];
        if (!t.fn.startsWith('Math.') || !(MATH as readonly string[]).includes(name) || args.length !== (ARITY[name] ?? 1)) throw new Error(t.fn);
        return [...args.flat(), OP.call, ...uleb(enc.math(name))];
      }
      default:
        return [...emit(t.a), ...emit(t.b), BINARY[t.op]];
    }
  };
  return emit(parseTree(v));
}
