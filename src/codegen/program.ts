// The generated module as data, and its one printer. generate.ts builds the
// description as it emits code and prints the module's text from it; the
// WebAssembly target (wasm.ts) reads the same description and prints its
// own variant through the printer's hooks, instead of parsing the text.
//
// Lines stay strings while code is made (the solves, Newton and the fallbacks
// compose them from the strings the Module returns, in many files). What the
// printer must know about a line is recorded where the line's text is made:
// a call of a module function (Module.raw, Module.function, Module.line) or a
// dense solve (Scope.solve). When a function is finished, each of its lines
// is looked up by its text in that record (sites: a line's text with its
// indentation taken off) and kept as pieces, text and references: a call of
// function f, printed when sharing is known (share.ts: `f12(t, x, u, p, w)`
// becomes `s0(t, x, u, p, w, 12, 40)`) and, by the WebAssembly driver,
// through `fns`; a dense solve, which the WebAssembly instance runs as its
// kernel. Straight-line functions are printed from their text or IR, not
// kept here: the description is small beside the module.
//
// Glossary: part an item of the module after the runtime (a declaration, a
// function); line one line of a function's body; piece text or a reference
// within a line.
import { type RuntimeName, runtimeSource } from './runtime.ts';

export const ARGS = 't, x, u, p, w';

/**
 * text, a call of module function `call` (`call(t, x, u, p, w)`), a dense
 * solve choleskySolve(k, H, c), or a loop calling template `loop` for the
 * instances from..to-1 (templates.ts): `for (let k = from; k < to; k++) loop(t, x, u, p, w, k);`
 */
export type Piece = string | { call: string } | { solve: [k: number, H: string, c: string] } | { loop: string; from: number; to: number };

/** a line: text, or its indentation and pieces */
export type Line = string | { indent: string; pieces: Piece[] };

export type Part =
  /** code as it stands (a declaration); `fn`: the function it begins with (an unrolled factorisation), listed with the module's functions */
  | { k: 'code'; s: string; fn?: string }
  /** `const a = doubles(n), b = <init>;`: arrays of n doubles, or another initialiser as written */
  | { k: 'arrays'; arrays: [string, number | string][] }
  /** a straight-line function `name(t, x, u, p, w[, offsets])`: printed from its text or IR (Hooks.straight) */
  | { k: 'straight'; name: string }
  /** a function `name(t, x, u, p, w)` of lines: a solve, Newton, a fallback */
  | { k: 'lines'; name: string; lines: Line[] };

/** the module after the runtime, JSON-able (kept for the WebAssembly target, compiled-data.ts) */
export interface Program {
  parts: Part[];
  /** derivatives(t, x, dx, u, p, w): its lines, indented by the printer, then dx from w and the finiteness check */
  derivatives: Line[];
  tail: string[];
  /** outputs(t, x, u, p, w): its lines */
  outputs: Line[];
  /** a function replaced by a shared one (share.ts) -> that function and the offsets its call passes */
  shared: Record<string, { fn: string; offsets: number[] }>;
  /** the run-time helpers the module calls (runtime/source.ts): printed first, with what they need */
  runtime: RuntimeName[];
}

/** how a variant of the module prints what the description leaves open */
export interface Hooks {
  /** a straight-line function, whole */
  straight(name: string): string;
  /** a call of a module function (default: callText) */
  call?(fn: string): string;
  /** an array of n doubles, `name = doubles(n)` by default */
  array?(name: string, n: number): string;
  /** a dense solve, `choleskySolve(k, H, c)` by default */
  solve?(k: number, H: string, c: string): string;
}

/** the function a call of module function fn calls, and the offsets it passes: the shared one's when fn was replaced by one */
export function resolve(p: Program, fn: string): { fn: string; offsets: number[] } {
  return Object.hasOwn(p.shared, fn) ? p.shared[fn] : { fn, offsets: [] };
}

/** the call of module function fn, `fn(t, x, u, p, w)`, or the shared function's with its offsets */
export function callText(p: Program, fn: string): string {
  const s = resolve(p, fn);
  return s.offsets.length ? `${s.fn}(${ARGS}, ${s.offsets.join(', ')})` : `${s.fn}(${ARGS})`;
}

/** a whole-line call `fn(t, x, u, p, w);`: its callee, else undefined */
export function calleeOf(line: Line): string | undefined {
  if (typeof line === 'string' || line.pieces.length !== 2) return undefined;
  const [c, end] = line.pieces;
  return typeof c === 'object' && 'call' in c && end === ';' ? c.call : undefined;
}

/** the line as printed, without its indentation */
export function printLine(line: Line, p: Program, hooks: Pick<Hooks, 'call' | 'solve'>): string {
  if (typeof line === 'string') return line;
  let s = '';
  for (const piece of line.pieces) {
    if (typeof piece === 'string') s += piece;
    else if ('call' in piece) s += hooks.call ? hooks.call(piece.call) : callText(p, piece.call);
    else if ('loop' in piece) s += `for (let k = ${piece.from}; k < ${piece.to}; k++) ${piece.loop}(${ARGS}, k);`;
    else s += hooks.solve ? hooks.solve(...piece.solve) : `choleskySolve(${piece.solve.join(', ')})`;
  }
  return s;
}

const indented = (line: Line, p: Program, hooks: Hooks) => (typeof line === 'string' ? line : line.indent + printLine(line, p, hooks));

/** the names the module's functions are printed under, in order (derivatives.functions): a replaced one's under its shared function's */
export function functionNames(p: Program): string[] {
  return p.parts.flatMap((q) => (q.k === 'straight' || q.k === 'lines' ? [q.name] : q.k === 'code' && q.fn ? [q.fn] : []));
}

function printPart(q: Part, p: Program, hooks: Hooks): string {
  switch (q.k) {
    case 'code':
      return q.s;
    case 'arrays':
      return `const ${q.arrays.map(([a, n]) => (typeof n === 'string' ? `${a} = ${n}` : hooks.array ? hooks.array(a, n) : `${a} = doubles(${n})`)).join(', ')};`;
    case 'straight':
      return hooks.straight(q.name);
    case 'lines':
      return `function ${q.name}(${ARGS}) {\n${q.lines.map((l) => indented(l, p, hooks)).join('\n')}\n}`;
  }
}

// (description, hooks) => the body of the module: given `fail`, returns `derivatives` (with `derivatives.outputs`)
export function printModule(p: Program, hooks: Hooks): string {
  const lines = (ls: readonly Line[]) => ls.map((l) => `  ${indented(l, p, hooks)}`).join('\n');
  const main = `function derivatives(t, x, dx, u, p, w) {\n${lines(p.derivatives)}\n${p.tail.join('\n')}\n}`;
  const outputs = `// the signals derivatives() does not need, for sampling\nfunction outputs(${ARGS}) {\n${lines(p.outputs)}\n}`;
  const exposed = `derivatives.functions = { ${functionNames(p).join(', ')} };`;
  return [
    '"use strict";',
    runtimeSource(p.runtime),
    ...p.parts.map((q) => printPart(q, p, hooks)),
    main,
    outputs,
    'derivatives.outputs = outputs;',
    exposed,
    'return derivatives;',
  ].join('\n');
}
