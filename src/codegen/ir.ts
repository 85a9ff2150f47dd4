// The code generator's intermediate representation of straight-line code,
// and its JavaScript printer. The emitter (emitter.ts) lowers expressions to
// it; sharing (share.ts) builds shared functions from it, and the
// WebAssembly target (wasm.ts) translates it. Plain data (JSON-able), so a compiled model's
// generated code keeps it through the compile cache.
//
// Glossary
//   Value  a printed expression: a number, a name (local, t), an array
//          element a[o + i], a sum, a product, a power, a quotient, a call
//   Stmt   one line of a function: `const name = value;`, `a[i] = value;`,
//          a pivot check, or text the IR does not model (loops, solves, calls)
//   Fn     a function `name(params) { body }`
//
// The printer is the one place the JavaScript's spelling is fixed: the
// golden test (test/codegen/golden) and the byte-identical emitted modules
// depend on it character for character.

/** an element of an array: `a[i]`, `a[o + i]` in a function shared with offset parameter o (share.ts) */
export interface Elem {
  k: 'elem';
  a: string;
  i: number;
  o?: string;
}

export type Value =
  | { k: 'num'; v: number }
  /** a local, a parameter (t), or any other atom */
  | { k: 'name'; s: string }
  | Elem
  /** t0 + t1 + ...; a negative term prints as ` - ...` */
  | { k: 'add'; t: Value[] }
  /** c * f0 * f1 * ...: |c| printed as a leading factor unless 1, its sign as a unary minus */
  | { k: 'mul'; c: number; f: Value[] }
  /** b^n as b*b*...*b (n <= 8; larger powers are calls of Math.pow) */
  | { k: 'pow'; b: Value; n: number }
  | { k: 'div'; a: Value; b: Value }
  /** fn(args): fn is the printed name, Math.sin */
  | { k: 'call'; fn: string; args: Value[] };

export type Stmt =
  | { k: 'const'; name: string; v: Value }
  | { k: 'store'; to: Elem; v: Value }
  /** |v| against the loop's running pivot scale w[scale]; a failure sets w[flag] (generate.ts, checked loops) */
  | { k: 'pivot'; v: Value; scale: number; flag: Elem }
  /** code the IR does not model, printed as it stands */
  | { k: 'text'; s: string };

export interface Fn {
  name: string;
  params: string[];
  body: Stmt[];
}

export const num = (v: number): Value => ({ k: 'num', v });
export const name = (s: string): Value => ({ k: 'name', s });
export const elem = (a: string, i: number, o?: string): Elem => (o === undefined ? { k: 'elem', a, i } : { k: 'elem', a, i, o });

// --- JavaScript ------------------------------------------------------------------------------

/*
 * The printer writes the code's characters into one buffer, and a print
 * (printBody, printStmt, printValue, printElem) decodes what it wrote once:
 * strings per value and per statement, concatenated up and flattened, were a
 * fifth of generating's allocations on a long chain (every function is
 * printed: its text, the key of sharing read off it). Nothing is printed
 * while another print runs (no callbacks), so one buffer serves every print.
 */
let out = new Uint8Array(1 << 16);
let at = 0;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** room for k more bytes */
function room(k: number): void {
  if (at + k <= out.length) return;
  const grown = new Uint8Array(Math.max(2 * out.length, at + k));
  grown.set(out.subarray(0, at));
  out = grown;
}

function put(s: string): void {
  room(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 127) return putWide(s.slice(i)); // as UTF-8, which the decoder reads back
    out[at++] = c;
  }
}

function putWide(s: string): void {
  room(3 * s.length);
  at += encoder.encodeInto(s, out.subarray(at)).written;
}

/** String(i), a non-negative integer's digits written without a string */
function putNumber(i: number): void {
  if (!(Number.isSafeInteger(i) && i >= 0)) return put(String(i));
  let digits = 1;
  for (let p = 10; p <= i; p *= 10) digits++;
  room(digits);
  for (let k = at + digits - 1; k >= at; k--, i = Math.floor(i / 10)) out[k] = 48 + (i % 10);
  at += digits;
}

/** what `write` wrote, as a string */
function printed(write: () => void): string {
  at = 0;
  write();
  return decoder.decode(out.subarray(0, at));
}

/*
 * Precedence of printed code: 0 a sum or a unary minus, 1 a product or
 * quotient, 2 an atom. Read from the value, not carried with its text.
 */
function prec(v: Value): 0 | 1 | 2 {
  switch (v.k) {
    case 'num':
      return v.v >= 0 ? 2 : 0;
    case 'add':
      return 0;
    case 'mul':
      return v.c < 0 ? 0 : 1;
    case 'pow':
    case 'div':
      return 1;
    default:
      return 2;
  }
}

function paren(v: Value, min: number): void {
  if (prec(v) >= min) return code(v);
  put('(');
  code(v);
  put(')');
}

/**
 * Printing a template key (printKey): elements of the arrays that shift
 * between instances (w, x, u, p) without their index, numbers without their
 * magnitude; all else as the JavaScript prints it
 */
let keying = false;
/** the arrays whose indices differ between a template's instances */
export const SHIFTED_ARRAYS: ReadonlySet<string> = new Set(['w', 'x', 'u', 'p']);

function elemCode(e: Elem): void {
  put(e.a);
  put('[');
  if (keying && e.o === undefined && SHIFTED_ARRAYS.has(e.a)) return put(']');
  if (e.o !== undefined) {
    put(e.o);
    if (!e.i) return put(']');
    put(' + ');
  }
  putNumber(e.i);
  put(']');
}

/** a product without its sign: |c| as a leading factor unless 1 */
function unsigned(v: Value & { k: 'mul' }): void {
  const start = at;
  if (Math.abs(v.c) !== 1) put(keying ? '#' : String(Math.abs(v.c)));
  for (let i = 0; i < v.f.length; i++) {
    if (at > start || i > 0) put('*');
    paren(v.f[i], 1);
  }
}

function code(v: Value): void {
  switch (v.k) {
    case 'num':
      if (!(v.v >= 0)) put('-');
      return put(keying ? '#' : String(v.v >= 0 ? v.v : -v.v));
    case 'name':
      return put(v.s);
    case 'elem':
      return elemCode(v);
    case 'add': {
      // a negative number or negated product after the first term is subtracted
      code(v.t[0]);
      for (let i = 1; i < v.t.length; i++) {
        const t = v.t[i];
        if (t.k === 'num' && !(t.v >= 0)) {
          put(' - ');
          put(keying ? '#' : String(-t.v));
        } else if (t.k === 'mul' && t.c < 0) {
          put(' - ');
          unsigned(t);
        } else {
          put(' + ');
          code(t);
        }
      }
      return;
    }
    case 'mul':
      if (v.c < 0) put('-');
      return unsigned(v);
    case 'pow':
      // the base printed n times (so an element of it is read n times, in that order)
      for (let i = 0; i < v.n; i++) {
        if (i) put('*');
        paren(v.b, 2);
      }
      return;
    case 'div':
      paren(v.a, 1);
      put('/');
      return paren(v.b, 2);
    case 'call':
      put(v.fn);
      put('(');
      for (let i = 0; i < v.args.length; i++) {
        if (i) put(', ');
        code(v.args[i]);
      }
      return put(')');
  }
}

function stmtCode(st: Stmt): void {
  switch (st.k) {
    case 'const':
      put('const ');
      put(st.name);
      put(' = ');
      code(st.v);
      return put(';');
    case 'store':
      elemCode(st.to);
      put(' = ');
      code(st.v);
      return put(';');
    case 'pivot':
      put('if (!pivotOk(');
      code(st.v);
      put(', w, ');
      put(String(st.scale));
      put(')) ');
      elemCode(st.flag);
      return put(' = 1;');
    case 'text':
      return put(st.s);
  }
}

function bodyCode(body: readonly Stmt[], indent: string): void {
  for (let i = 0; i < body.length; i++) {
    if (i) put('\n');
    put(indent);
    stmtCode(body[i]);
  }
}

export const printElem = (e: Elem): string => printed(() => elemCode(e));

/** the JavaScript of a value */
export const printValue = (v: Value): string => printed(() => code(v));

/** the JavaScript of one statement, without indentation */
export const printStmt = (st: Stmt): string => (st.k === 'text' ? st.s : printed(() => stmtCode(st)));

/** the body's lines, each indented, joined by newlines */
export const printBody = (body: readonly Stmt[], indent = '  '): string => printed(() => bodyCode(body, indent));

/**
 * The body as a template's key (templates.ts): printed with every element of
 * w, x, u, p as `w[]` and every number's magnitude as `#` (its sign kept):
 * two bodies with equal keys compute alike up to those indices and numbers
 */
export function printKey(body: readonly Stmt[]): string {
  keying = true;
  try {
    return printed(() => bodyCode(body, ''));
  } finally {
    keying = false;
  }
}

/** `function name(params) {\n body \n}` */
export const printFn = (f: Fn, indent = '  '): string =>
  printed(() => {
    put(`function ${f.name}(${f.params.join(', ')}) {\n`);
    bodyCode(f.body, indent);
    put('\n}');
  });

// --- walking ---------------------------------------------------------------------------------

/** the values a value is made of */
export function operands(v: Value): readonly Value[] {
  switch (v.k) {
    case 'add':
      return v.t;
    case 'mul':
      return v.f;
    case 'pow':
      return [v.b];
    case 'div':
      return [v.a, v.b];
    case 'call':
      return v.args;
    default:
      return [];
  }
}

/**
 * The statements with every element replaced by f(element), f called in
 * printed order (left to right, a power's base once per printed copy; the
 * first copy's result is kept): element k of the text is the k-th call.
 */
export function mapElems(body: readonly Stmt[], f: (e: Elem) => Elem): Stmt[] {
  const value = (v: Value): Value => {
    switch (v.k) {
      case 'elem':
        return f(v);
      case 'add':
        return { k: 'add', t: v.t.map(value) };
      case 'mul':
        return { k: 'mul', c: v.c, f: v.f.map(value) };
      case 'pow': {
        const b = value(v.b);
        for (let i = 1; i < v.n; i++) value(v.b);
        return { k: 'pow', b, n: v.n };
      }
      case 'div': {
        const a = value(v.a);
        return { k: 'div', a, b: value(v.b) };
      }
      case 'call':
        return { k: 'call', fn: v.fn, args: v.args.map(value) };
      default:
        return v;
    }
  };
  return body.map((st): Stmt => {
    switch (st.k) {
      case 'const':
        return { k: 'const', name: st.name, v: value(st.v) };
      case 'store': {
        const to = f(st.to);
        return { k: 'store', to, v: value(st.v) };
      }
      case 'pivot': {
        const v = value(st.v);
        return { k: 'pivot', v, scale: st.scale, flag: f(st.flag) };
      }
      case 'text':
        return st;
    }
  });
}

/** f of every array element the statements read or write, in printed order (as mapElems, without copying) */
export function forEachElem(body: readonly Stmt[], f: (e: Elem) => void): void {
  const value = (v: Value): void => {
    if (v.k === 'elem') f(v);
    else if (v.k === 'pow') for (let i = 0; i < v.n; i++) value(v.b);
    else if (v.k === 'add' || v.k === 'mul' || v.k === 'div' || v.k === 'call') for (const a of operands(v)) value(a);
  };
  for (const st of body) {
    if (st.k === 'store') f(st.to);
    if (st.k !== 'text') value(st.v);
    if (st.k === 'pivot') f(st.flag);
  }
}

/** every array element the statements read or write, in printed order */
export function elements(body: readonly Stmt[]): Elem[] {
  const out: Elem[] = [];
  forEachElem(body, (e) => out.push(e));
  return out;
}
