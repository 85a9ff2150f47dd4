// The code generator's intermediate representation of straight-line code,
// and its JavaScript printer. The emitter (emitter.ts) lowers expressions to
// it; sharing (share.ts) and the WebAssembly target (wasm.ts) read it instead
// of the printed text. Plain data (JSON-able), so a compiled model's
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
 * Precedence of printed code: 0 a sum or a unary minus, 1 a product or
 * quotient, 2 an atom. Read from the value, not carried with its text: the
 * printer allocates only the strings it returns (every function is printed
 * two or three times: its text, its sharing key, the check of a shared one).
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

const paren = (v: Value, min: number, el: ElemText) => (prec(v) < min ? `(${code(v, el)})` : code(v, el));

export function printElem(e: Elem): string {
  if (e.o === undefined) return `${e.a}[${e.i}]`;
  return e.i ? `${e.a}[${e.o} + ${e.i}]` : `${e.a}[${e.o}]`;
}

/** how an element is spelled: printElem, or another spelling for keys and checks (share.ts) */
export type ElemText = (e: Elem) => string;

/** a product without its sign: |c| as a leading factor unless 1 */
function unsigned(v: Value & { k: 'mul' }, el: ElemText): string {
  let s = Math.abs(v.c) !== 1 ? String(Math.abs(v.c)) : '';
  for (let i = 0; i < v.f.length; i++) s += (s || i > 0 ? '*' : '') + paren(v.f[i], 1, el);
  return s;
}

function code(v: Value, el: ElemText): string {
  switch (v.k) {
    case 'num':
      return v.v >= 0 ? String(v.v) : `-${String(-v.v)}`;
    case 'name':
      return v.s;
    case 'elem':
      return el(v);
    case 'add': {
      // a negative number or negated product after the first term is subtracted
      let s = code(v.t[0], el);
      for (let i = 1; i < v.t.length; i++) {
        const t = v.t[i];
        if (t.k === 'num' && !(t.v >= 0)) s += ` - ${String(-t.v)}`;
        else if (t.k === 'mul' && t.c < 0) s += ` - ${unsigned(t, el)}`;
        else s += ` + ${code(t, el)}`;
      }
      return s;
    }
    case 'mul':
      return v.c < 0 ? `-${unsigned(v, el)}` : unsigned(v, el);
    case 'pow': {
      // the base printed n times (so an element of it is read n times, in that order)
      let s = '';
      for (let i = 0; i < v.n; i++) s += (i ? '*' : '') + paren(v.b, 2, el);
      return s;
    }
    case 'div':
      return `${paren(v.a, 1, el)}/${paren(v.b, 2, el)}`;
    case 'call': {
      let s = `${v.fn}(`;
      for (let i = 0; i < v.args.length; i++) s += (i ? ', ' : '') + code(v.args[i], el);
      return `${s})`;
    }
  }
}

/** the JavaScript of a value */
export const printValue = (v: Value, el: ElemText = printElem): string => code(v, el);

/** the JavaScript of one statement, without indentation */
export function printStmt(st: Stmt, el: ElemText = printElem): string {
  switch (st.k) {
    case 'const':
      return `const ${st.name} = ${printValue(st.v, el)};`;
    case 'store':
      return `${el(st.to)} = ${printValue(st.v, el)};`;
    case 'pivot':
      return `if (!pivotOk(${printValue(st.v, el)}, w, ${st.scale})) ${el(st.flag)} = 1;`;
    case 'text':
      return st.s;
  }
}

/** the body's lines, each indented */
export const printBody = (body: readonly Stmt[], indent = '  ', el: ElemText = printElem): string => body.map((st) => indent + printStmt(st, el)).join('\n');

/** `function name(params) {\n body \n}` */
export const printFn = (f: Fn, indent = '  '): string => `function ${f.name}(${f.params.join(', ')}) {\n${printBody(f.body, indent)}\n}`;

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
