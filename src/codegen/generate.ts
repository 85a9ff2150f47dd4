// Code generation: a solve plan becomes the body of a JavaScript module whose
// `derivatives(t, x, dx, u, p, w)` computes every unknown into the workspace w
// and the state derivatives into dx. Code is split into many small functions
// (at most `chunk` statements and MAX_FUNCTION_CHARS each) over the one
// workspace (a plain array of doubles, runtime.ts doubles()), so V8 optimises every one of them; within a function
// values live in local constants, and only what other functions read goes
// through the workspace. Nothing is allocated per call. Assignment lists are
// cut where their statements repeat, and functions equal up to shifted indices
// are emitted once and called with offsets (share.ts).
//
// Glossary: t time, x states, dx their derivatives, u inputs, p parameters
// left symbolic, w workspace (unknowns, then compiler temporaries).
import { type Expr, type Sym, isConst, symsOf } from '../expr/index.ts';
import { TIME, type Variable } from '../model/index.ts';
import { type Assign, type AssignStep, type Checked, type Columns, type LinearStep, type SolvePlan, type Step, Temp, stepExprs } from '../structure/plan-types.ts';
import { splitOutputs } from '../structure/needed.ts';
import { Scope } from './emitter.ts';
import { type Elem, type Fn, type Value, elem, name, printBody, printElem, printFn, printValue } from './ir.ts';
import { newton } from './newton.ts';
import type { SubstitutionOptions, SubstitutionSlots } from './substitution.ts';
import { type SparseCholesky, densePattern, sparseCholesky, unrolledCholesky } from './sparse-cholesky.ts';
import { oneTriangle } from './one-triangle.ts';
import { type IterationSlots, emitIterate } from './relax-iterate.ts';
import { type OpCounts, addOps, choleskyOps, noOps, refinedLuOps } from './ops.ts';
import { RUNTIME_SOURCE, singularBelow } from './runtime.ts';
import { type Raw, Shapes, measure, pieces, share } from './share.ts';

export interface Layout {
  states: string[];
  inputs: string[];
  parameters: string[];
  /** name of each workspace slot */
  workspace: string[];
  /** workspace slot of der(state i) */
  derivativeSlots: number[];
  /** workspace slots counting, per relaxed loop with checked pivots, the evaluations that fell back to its torn form */
  fallbackCounters: number[];
  /** workspace slots of the relaxing iterations' sweep counts (relax-iterate.ts); only when there are any */
  iterations?: IterationSlots[];
  /** workspace slots of the successive substitutions' counts (substitution.ts); only when there are any */
  substitutions?: SubstitutionSlots[];
}

export interface Generated {
  /** function body: given `fail`, returns `derivatives` (with `derivatives.outputs`) */
  body: string;
  /** operations of derivatives() */
  ops: OpCounts;
  /** operations of outputs(): the signals the derivatives do not need */
  outputOps: OpCounts;
  layout: Layout;
  functions: number;
  /**
   * the straight-line functions (assignments, fills) as IR, in module order,
   * shared ones with their offset parameters: what the WebAssembly target
   * translates (wasm.ts); JSON-able, kept only for that target (compiled-data.ts)
   */
  ir?: Fn[];
}

const PARAMS = ['t', 'x', 'u', 'p', 'w'];
const ARGS = PARAMS.join(', ');
/** V8 leaves functions with more than ~60 KB of bytecode to its slower tiers: stay well below */
const MAX_FUNCTION_CHARS = 30000;
/** printed code that is a name, a number or an array element: no local needed to reuse it */
const ATOM = /^[\w$.[\]]+$/;

class Slots {
  readonly names: string[] = [];
  private readonly index = new Map<number, Elem>();
  constructor(plan: SolvePlan) {
    plan.states.forEach((v, i) => this.index.set(v.id, elem('x', i)));
    plan.inputs.forEach((v, i) => this.index.set(v.id, elem('u', i)));
    plan.parameters.forEach((v, i) => this.index.set(v.id, elem('p', i)));
    for (const v of plan.unknowns) this.slot(v);
  }
  /** the workspace slot of a target, allocated on first use */
  slot(s: Sym): number {
    const ref = this.index.get(s.id);
    if (ref?.a === 'w') return ref.i;
    if (ref) throw new Error(`codegen: ${s.name} is known (${printElem(ref)}) and cannot be assigned`);
    this.index.set(s.id, elem('w', this.names.length));
    this.names.push(s.name);
    return this.names.length - 1;
  }
  readonly ref = (s: Sym): Value => {
    if (s.id === TIME.id) return name('t');
    const r = this.index.get(s.id);
    if (!r) throw new Error(`codegen: ${s.name} is read before it is computed`);
    return r;
  };
}

/** symbol id -> how many of the expressions read it */
function readCounts(exprs: readonly Expr[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const e of exprs) for (const id of symsOf(e)) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

export class Module {
  /** code outside functions, functions, and functions that may be shared */
  readonly parts: (string | Raw)[] = [];
  private readonly shapes = new Shapes();
  readonly ops = noOps();
  private fn = 0;
  constructor(
    readonly slots: Slots,
    readonly chunk: number,
    /** symbol id -> expressions of the whole plan reading it */
    readonly reads: Map<number, number>,
    /** successive substitution before Newton (GenerateOptions) */
    readonly substitution?: SubstitutionOptions,
  ) {}

  /** a new function from `fill`; returns its name */
  function(prefix: string, fill: (scope: Scope) => void): string {
    const name = `${prefix}${this.fn++}`;
    const scope = new Scope(this.slots.ref, '  ', { next: 0 });
    fill(scope);
    addOps(this.ops, scope.ops);
    this.parts.push(`function ${name}(${ARGS}) {\n${scope.lines.join('\n')}\n}`);
    return name;
  }

  /** code emitted by `make` whose operations are not those of an evaluation (a path taken only on failure) */
  uncounted<T>(make: () => T): T {
    const counted = { ...this.ops };
    const out = make();
    Object.assign(this.ops, counted);
    return out;
  }

  private readonly fallbacks = new Map<number, string>();
  /** workspace slots counting the evaluations a checked loop fell back to its torn form */
  readonly fallbackCounters = new Set<number>();
  /** workspace slots of the relaxing iterations' sweep counts */
  readonly iterations: IterationSlots[] = [];
  /** workspace slots of the successive substitutions' counts */
  readonly substitutions: SubstitutionSlots[] = [];
  /** the function solving a checked loop's torn form, emitted once; its operations are not those of an evaluation */
  fallback(checked: Checked): string {
    let name = this.fallbacks.get(checked.flag.id);
    if (!name) {
      name = this.uncounted(() => {
        const calls = emitSteps(this, [checked.fallback]);
        return this.function('fallback', (sc) => calls.forEach((c) => sc.line(c)));
      });
      this.fallbacks.set(checked.flag.id, name);
    }
    return name;
  }

  /** a function `name(t, x, u, p, w)` with this body, which may be shared; returns its call */
  private raw(prefix: string, raw: Omit<Raw, 'name'>): string {
    const name = `${prefix}${this.fn++}`;
    this.parts.push({ name, ...raw });
    return `${name}(${ARGS});`;
  }

  /**
   * Assignments split into functions of at most `chunk` statements and
   * MAX_FUNCTION_CHARS characters, cut where the statements repeat; returns
   * the calls. Within a function every value lives in a local constant; only
   * model variables and the temporaries read elsewhere are stored in w.
   */
  assigns(list: readonly Assign[], prefix = 'f', check?: PivotCheck): string[] {
    const calls: string[] = [];
    const emit = (part: readonly Assign[], repeated: boolean) => {
      const { body, ops } = this.assignScope(part, check);
      const raw = { body, text: printBody(body) };
      // a repeated piece is measured with indices of one width, so that all its copies are cut alike
      if ((repeated ? measure(raw) : raw.text.length) > MAX_FUNCTION_CHARS && part.length > 1) {
        const half = part.length >> 1;
        emit(part.slice(0, half), repeated);
        emit(part.slice(half), repeated);
        return;
      }
      addOps(this.ops, ops);
      calls.push(this.raw(prefix, raw));
    };
    const shapes = list.map((a) => (Math.imul(this.shapes.of(a.expr), 31) + (a.pivot ? 3 : a.target instanceof Temp ? 1 : 2)) | 0);
    for (const [from, to, repeated] of pieces(shapes, this.chunk)) emit(list.slice(from, to), repeated);
    return calls;
  }

  /** the body of one function computing `part` */
  private assignScope(part: readonly Assign[], check?: PivotCheck): Scope {
    const local = new Map<number, Value>(part.map((a, k) => [a.target.id, name(`v${k}`)]));
    const readHere = readCounts(part.map((a) => a.expr));
    // straight-line: a slot is written here only once it is computed, and read back through its local
    const scope = new Scope((sym) => local.get(sym.id) ?? this.slots.ref(sym), '  ', { next: 0 }, true);
    scope.prepare(part.map((a) => a.expr));
    part.forEach((a, k) => {
      const id = a.target.id;
      const stored = !(a.target instanceof Temp) || (this.reads.get(id) ?? 0) > (readHere.get(id) ?? 0);
      const checked = a.pivot && check;
      if (!stored && !readHere.has(id) && !checked) return; // a temporary nobody reads
      let v = scope.value(a.expr);
      if ((readHere.has(id) || checked) && !ATOM.test(printValue(v))) {
        scope.let(`v${k}`, v);
        v = name(`v${k}`);
      }
      local.set(id, v); // later reads use the local, or the atom itself
      if (stored) scope.store(elem('w', this.slots.slot(a.target)), v);
      // |p| > PIVOT_EPS * (largest |pivot| of the loop so far); NaN and exact zeros fail too
      // (a test, not arithmetic of the model: not in the op counts; the report counts the checks)
      if (checked) scope.pivot(v, check.scale, check.flag);
    });
    return scope;
  }

  /** one function writing each list of exprs into its array; returns the call */
  /** writes of the arrays' entries; an undefined entry is left as it is */
  fillArrays(arrays: readonly (readonly [string, readonly (Expr | undefined)[]])[]): string[] {
    const writes = arrays.flatMap(([array, exprs]) => exprs.flatMap((e, i) => (e ? [[elem(array, i), e] as const] : [])));
    const calls: string[] = [];
    // a mass matrix of n = 64 is 4096 entries: in functions V8 optimises, like the assignments
    const emit = (part: readonly (readonly [Elem, Expr])[]) => {
      const scope = new Scope(this.slots.ref, '  ', { next: 0 });
      scope.prepare(part.map(([, e]) => e));
      for (const [target, e] of part) scope.assign(target, e);
      const raw = { body: scope.body, text: printBody(scope.body) };
      if (raw.text.length > MAX_FUNCTION_CHARS && part.length > 1) {
        emit(part.slice(0, part.length >> 1));
        emit(part.slice(part.length >> 1));
        return;
      }
      addOps(this.ops, scope.ops);
      calls.push(this.raw('fill', raw)); // H and c of one block: never equal to another's
    };
    for (let i = 0; i < writes.length; i += this.chunk) emit(writes.slice(i, i + this.chunk));
    return calls;
  }
}

/**
 * How a Cholesky solve knows H symmetric: its triangles are the same
 * expressions, or evaluate alike (symmetry.ts: one triangle formed), or H is
 * checked at run time (nearSymmetric)
 */
type Symmetry = 'structural' | 'byValue' | 'numeric';

/** workspace slots of a checked loop's flag and running pivot scale */
interface PivotCheck {
  flag: number;
  scale: number;
}

export interface GenerateOptions {
  /** statements per generated function */
  chunk?: number;
  /** share functions equal up to shifted indices (default true) */
  share?: boolean;
  /** torn nonlinear loops (not kinematic closures) try successive substitution before Newton (substitution.ts) */
  substitution?: SubstitutionOptions;
}

// (plan, options) => module body, op counts and workspace layout
export function generate(plan: SolvePlan, options: GenerateOptions = {}): Generated {
  const chunk = options.chunk ?? 800;
  const slots = new Slots(plan);
  const split = splitOutputs(plan);
  const mod = new Module(slots, chunk, readCounts([...split.derivatives, ...split.outputs].flatMap(stepExprs)), options.substitution);
  const calls = emitSteps(mod, split.derivatives);
  const ops = { ...mod.ops };
  const outputCalls = emitSteps(mod, split.outputs);
  const outputOps = { mul: mod.ops.mul - ops.mul, add: mod.ops.add - ops.add, div: mod.ops.div - ops.div, fn: mod.ops.fn - ops.fn };
  const derivativeSlots = plan.states.map((s) => slots.slot(s.derivative!));
  const copy = derivativeSlots.map((k, i) => `  dx[${i}] = w[${k}];`);
  const indent = (lines: string[]) => lines.map((c) => `  ${c}`).join('\n');
  // a wrong number never leaves silently: NaN or an infinity in any derivative makes the sum non-finite, an error
  const finite = copy.length ? [`  let sum = 0;`, `  for (let i = 0; i < ${copy.length}; i++) sum += dx[i];`, `  if (!Number.isFinite(sum)) fail('nonfinite', -1, t, sum);`] : [];
  const main = `function derivatives(t, x, dx, u, p, w) {\n${indent(calls)}\n${[...copy, ...finite].join('\n')}\n}`;
  const outputs = `// the signals derivatives() does not need, for sampling\nfunction outputs(t, x, u, p, w) {\n${indent(outputCalls)}\n}`;
  const raws = mod.parts.filter((q): q is Raw => typeof q !== 'string');
  const shared = options.share === false ? { functions: new Map<string, Fn>(), calls: new Map<string, { fn: string; offsets: number[] }>() } : share(raws, PARAMS);
  const ir: Fn[] = [];
  const parts = mod.parts.flatMap((q) => {
    if (typeof q === 'string') return [q];
    if (!shared.calls.has(q.name)) {
      ir.push({ name: q.name, params: PARAMS, body: q.body });
      return [`function ${q.name}(${ARGS}) {\n${q.text}\n}`];
    }
    const f = shared.functions.get(q.name);
    if (!f) return [];
    ir.push(f);
    return [printFn(f)];
  });
  // calls of shared functions get their offsets
  const call = /\b([a-z]+\d+)\(t, x, u, p, w\);/g;
  const relink = (code: string) => code.replace(call, (whole, name: string) => {
    const c = shared.calls.get(name);
    return c ? `${c.fn}(${ARGS}, ${c.offsets.join(', ')});` : whole;
  });
  // the module's own functions by name, for a target that runs some of them elsewhere (wasm.ts)
  const own = parts.flatMap((q) => /^function (\w+)\(/.exec(q)?.[1] ?? []);
  const exposed = `derivatives.functions = { ${own.join(', ')} };`;
  const body = ['"use strict";', RUNTIME_SOURCE, ...parts, main, outputs, 'derivatives.outputs = outputs;', exposed, 'return derivatives;'].map(relink).join('\n');
  const layout: Layout = {
    states: plan.states.map((v) => v.name),
    inputs: plan.inputs.map((v) => v.name),
    parameters: plan.parameters.map((v) => v.name),
    workspace: slots.names,
    derivativeSlots,
    fallbackCounters: [...mod.fallbackCounters],
    ...(mod.iterations.length && { iterations: mod.iterations }),
    ...(mod.substitutions.length && { substitutions: mod.substitutions }),
  };
  return { body, ops, outputOps, layout, functions: parts.filter((q) => q.startsWith('function ')).length + 2, ir };
}

function emitSteps(mod: Module, steps: readonly Step[]): string[] {
  const calls: string[] = [];
  for (const step of steps) {
    if (step.kind === 'assign') calls.push(...(step.checked ? checkedLoop(mod, step, step.checked) : mod.assigns(step.assigns)));
    else if (step.kind === 'linear') calls.push(...(step.columns ? columns(mod, step, step.columns) : linear(mod, step)));
    else if (step.kind === 'iterate') calls.push(...emitIterate(mod, step, (slots) => mod.iterations.push(slots)));
    else calls.push(`${newton(mod, step, mod.substitution, (slots) => mod.substitutions.push(slots))}(${ARGS});`);
  }
  return calls;
}

/**
 * A relaxed loop with its pivots checked (plan-types, Checked): the flag and
 * the running scale are reset, the elimination runs, and a failed check calls
 * the torn form of the loop, which computes every unknown of the loop again.
 * An outputs-pass remainder runs only when the fallback has not.
 */
function checkedLoop(mod: Module, step: AssignStep, checked: Checked): string[] {
  const check = { flag: mod.slots.slot(checked.flag), scale: mod.slots.slot(checked.scale) };
  const counter = mod.slots.slot(checked.count);
  mod.fallbackCounters.add(counter);
  const fallback = `if (w[${check.flag}] !== 0) { w[${counter}] += 1; ${mod.fallback(checked)}(${ARGS}); }`;
  const body = mod.assigns(step.assigns, 'f', check);
  if (checked.continued) return [`if (w[${check.flag}] === 0) {`, ...body.map((c) => `  ${c}`), `  ${fallback}`, '}'];
  return [`w[${check.flag}] = 0; w[${check.scale}] = 0;`, ...body, fallback];
}

function zWrites(mod: Module, z: readonly Variable[], from: string): string[] {
  return z.map((v, i) => `w[${mod.slots.slot(v)}] = ${from}[${i}];`);
}

// tearing paper: H z = c, solved numerically (Cholesky when H is structurally symmetric, else LU)
function linear(mod: Module, s: LinearStep): string[] {
  const k = s.z.length, H = `H${s.block}`, c = `c${s.block}`;
  const symbolic = s.cramer;
  mod.parts.push(`const ${H} = doubles(${k * k}), ${c} = doubles(${k});`);
  if (symbolic) {
    const prelude = mod.assigns(s.prelude, 'g');
    // Carpanzano & Formenti: z by Cramer's rule, subdeterminants shared, no run-time factorisation;
    // a determinant small against the rows' norms (Hadamard's bound) leaves the verdict to LU
    const z = s.z.map((v, i) => ({ target: v, expr: symbolic.z[i] }));
    const minors = mod.assigns(symbolic.assigns, 'm');
    const regular = mod.function('regular', (sc) => sc.line(`return ${sc.prepare([symbolic.hadamard]).code(symbolic.hadamard)} > ${singularBelow(k)};`));
    const byLu = mod.uncounted(() => mod.function('pivoted', (sc) => [...mod.fillArrays([[H, s.H], [c, s.c]]), ...luLines(mod, s, H, c)].forEach((l) => sc.line(l))));
    return [...prelude, ...minors, `if (${regular}(${ARGS})) {`, ...mod.assigns(z, 'z').map((l) => `  ${l}`), `} else ${byLu}(${ARGS});`, ...mod.assigns(s.y)];
  }
  // branch-induced sparsity: the structural zeros of H are never written (they stay 0) nor read
  const sparse = s.solver === 'cholesky' ? sparseCholesky(k, s.H) : undefined;
  const entries = sparse ? s.H.map((e) => (isConst(e, 0) ? undefined : e)) : s.H;
  // symmetric by value: one triangle for Cholesky; both, with the rest of the prelude, only for LU
  const tri = s.symmetricByValue && s.solver === 'cholesky' ? oneTriangle(k, entries, s.c, s.prelude, sparse?.order) : undefined;
  const prelude = mod.assigns(tri ? tri.first : s.prelude, 'g');
  const fill = [...prelude, ...mod.fillArrays([[H, tri ? tri.H : entries], [c, s.c]])];
  const refill = tri ? mod.uncounted(() => [...prelude, ...mod.assigns(tri.rest, 'g'), ...mod.fillArrays([[H, entries], [c, s.c]])]) : fill;
  const symmetry = s.symmetric ? 'structural' : tri ? 'byValue' : 'numeric';
  const solve = mod.function('solve', (sc) => {
    for (const f of fill) sc.line(f);
    if (sparse) {
      sparseCholeskyOrLu(mod, sc, s, sparse, symmetry, refill, luLines(mod, s, H, c, false));
      for (const l of zWrites(mod, s.z, c)) sc.line(l);
      return;
    }
    if (s.solver === 'division') {
      sc.line(`if (!(Math.abs(${H}[0]) > 0)) fail('singular', ${s.block}, t, ${c}[0]);`);
      sc.line(`w[${mod.slots.slot(s.z[0])}] = ${c}[0] / ${H}[0];`);
      return;
    }
    if (s.solver === 'cholesky') {
      const unrolled = unrolledCholesky(`cholesky${s.block}`, k, densePattern(k));
      if (unrolled) mod.parts.push(unrolled, `const D${s.block} = doubles(${k});`);
      const factor = unrolled && `cholesky${s.block}(${H}, ${c}, D${s.block})`;
      choleskyOrLu(sc, k, H, c, symmetry, refill, `fail('singular', ${s.block}, t, 0)`, luLines(mod, s, H, c, false), factor);
      for (const l of zWrites(mod, s.z, c)) sc.line(l);
    } else {
      for (const l of luLines(mod, s, H, c)) sc.line(l);
    }
  });
  addOps(mod.ops, s.solver === 'division' ? { ...noOps(), div: 1 } : sparse ? sparse.ops : s.solver === 'cholesky' ? choleskyOps(k) : refinedLuOps(k));
  return [`${solve}(${ARGS});`, ...mod.assigns(s.y)];
}

/**
 * choleskyOrLu on the pattern of a sparse H (sparse-cholesky.ts): the
 * positions elimination fills in are zeroed, the symmetry test and the
 * factorisation read the pattern only; the LU fallback zeroes all of H
 * (its last run left its factors in the structural zeros) and fills it again.
 */
function sparseCholeskyOrLu(mod: Module, sc: Scope, s: LinearStep, p: SparseCholesky, symmetry: Symmetry, fill: readonly string[], lu: readonly string[]): void {
  const k = s.z.length, b = s.block, H = `H${b}`, c = `c${b}`, [O, S, R, D, F] = ['O', 'S', 'R', 'D', 'F'].map((n) => `${n}${b}`);
  const ints = (a: readonly number[]) => `Int32Array.of(${a.join(', ')})`;
  mod.parts.push(`const ${O} = ${ints(p.order)}, ${S} = ${ints(p.start)}, ${R} = ${ints(p.rows)}, ${D} = doubles(${k})${p.fill.length ? `, ${F} = ${ints(p.fill)}` : ''};`);
  if (p.fill.length) sc.line(`for (let i = 0; i < ${p.fill.length}; i++) ${H}[${F}[i]] = 0;`);
  const unrolled = unrolledCholesky(`cholesky${b}`, k, p);
  if (unrolled) mod.parts.push(unrolled);
  const factor = unrolled ? `cholesky${b}(${H}, ${c}, ${D})` : `sparseCholeskySolve(${k}, ${H}, ${c}, ${O}, ${S}, ${R}, ${D})`;
  const fail = `fail('singular', ${b}, t, 0)`;
  if (symmetry === 'structural') {
    sc.line(`const definite = ${factor};`);
    sc.line(`if (definite < 0) ${fail};`);
    sc.line('if (definite === 0) {');
  } else {
    sc.line(`const definite = ${symmetry === 'numeric' ? `sparseNearSymmetric(${k}, ${H}, ${O}, ${S}, ${R}) ? ${factor} : 0` : factor};`);
    sc.line('if (definite <= 0) {');
  }
  sc.line(`  ${H}.fill(0);`);
  fill.forEach((l) => sc.line(`  ${l}`));
  if (symmetry !== 'structural') sc.line(`  if (definite < 0 && isSymmetric(${k}, ${H})) ${fail};`);
  lu.forEach((l) => sc.line(`  ${l}`));
  sc.line('}');
}

/**
 * Cholesky when H is symmetric positive definite (a mass matrix), else LU on
 * H formed again. A structurally symmetric H takes Cholesky's verdict
 * "singular" as it stands. A numerically symmetric one (nearSymmetric, on H
 * scaled to a unit diagonal; no test for one symmetric by value) keeps it only when H is also symmetric entry by
 * entry (isSymmetric): a pivot in Cholesky's grey zone, within 1e-11 of its
 * diagonal, is either formation noise (two massless links between ball
 * joints: symmetric entries) or a regular but ill-conditioned H (a chain with
 * one 1e12 kg link: its entries carry noise, and LU's equilibration solves it).
 */
function choleskyOrLu(sc: Scope, k: number, H: string, c: string, symmetry: Symmetry, fill: readonly string[], fail: string, lu: readonly string[], factor = `choleskySolve(${k}, ${H}, ${c})`): void {
  if (symmetry === 'structural') {
    sc.line(`const definite = ${factor};`);
    sc.line(`if (definite < 0) ${fail};`);
    sc.line(`if (definite === 0) {`);
  } else {
    sc.line(`const definite = ${symmetry === 'numeric' ? `nearSymmetric(${k}, ${H}) ? ${factor} : 0` : factor};`);
    sc.line(`if (definite <= 0) {`);
  }
  fill.forEach((l) => sc.line(`  ${l}`));
  if (symmetry !== 'structural') sc.line(`  if (definite < 0 && isSymmetric(${k}, ${H})) ${fail};`);
  lu.forEach((l) => sc.line(`  ${l}`));
  sc.line('}');
}

/** LU on the filled H and c, singular an error; then z is written */
function luLines(mod: Module, s: LinearStep, H: string, c: string, write = true): string[] {
  return [`if (!(luSolve(${s.z.length}, ${H}, ${c}, true) > 0)) fail('singular', ${s.block}, t, 0);`, ...(write ? zWrites(mod, s.z, c) : [])];
}

/**
 * H z = c formed at run time by columns (Walker and Orin's method 1): the
 * causal sequence and the residues at z = 0 give c = -r(0); the derivative of
 * the sequence and the residues along dz = e_j (its coefficients computed once,
 * in the prelude) gives column j. O(k) code for the O(k^2) work that a
 * symbolic H spells out entry by entry.
 */
function columns(mod: Module, s: LinearStep, cols: Columns): string[] {
  const k = s.z.length, b = s.block;
  const [H, c, r, d, dzs] = ['H', 'c', 'r', 'dh', 'dz'].map((n) => `${n}${b}`);
  const zSlots = s.z.map((v) => mod.slots.slot(v)), dzSlots = cols.dz.map((v) => mod.slots.slot(v));
  mod.parts.push(`const ${H} = doubles(${k * k}), ${c} = doubles(${k}), ${r} = doubles(${k}), ${d} = doubles(${k}), ${dzs} = Int32Array.of(${dzSlots.join(', ')});`);
  const prelude = mod.assigns(s.prelude, 'g');
  const before = { ...mod.ops };
  const y = mod.assigns(s.y, 'y');
  const yOps = since(before, mod.ops);
  const residual = mod.function('residual', (sc) => [...y, ...mod.fillArrays([[r, cols.residuals]])].forEach((l) => sc.line(l)));
  const beforeD = { ...mod.ops };
  const dy = [...mod.assigns(cols.dy, 'e'), ...mod.fillArrays([[d, cols.dh]])];
  const dOps = since(beforeD, mod.ops);
  const along = mod.function('direction', (sc) => dy.forEach((l) => sc.line(l)));
  const fail = `fail('singular', ${b}, t, 0)`;
  const fill = [
    ...zSlots.map((z) => `w[${z}] = 0;`),
    `${residual}(${ARGS});`,
    `for (let i = 0; i < ${k}; i++) ${c}[i] = -${r}[i];`,
    `for (let j = 0; j < ${k}; j++) w[${dzs}[j]] = 0;`,
    `for (let j = 0; j < ${k}; j++) {`,
    `  w[${dzs}[j]] = 1;`,
    `  ${along}(${ARGS});`,
    `  for (let i = 0; i < ${k}; i++) ${H}[i * ${k} + j] = ${d}[i];`,
    `  w[${dzs}[j]] = 0;`,
    '}',
  ];
  const solve = mod.function('columns', (sc) => {
    fill.forEach((l) => sc.line(l));
    if (s.solver === 'cholesky') choleskyOrLu(sc, k, H, c, 'numeric', fill, fail, [`if (!(luSolve(${k}, ${H}, ${c}, true) > 0)) ${fail};`]);
    else sc.line(`if (!(luSolve(${k}, ${H}, ${c}, true) > 0)) ${fail};`);
    zSlots.forEach((z, j) => sc.line(`w[${z}] = ${c}[${j}];`));
  });
  // counted once each as emitted: the sequence runs twice (at z = 0, then at the solution), the direction k times
  addOps(mod.ops, yOps);
  addOps(mod.ops, scaleOps(dOps, k - 1));
  addOps(mod.ops, s.solver === 'cholesky' ? choleskyOps(k) : refinedLuOps(k));
  return [...prelude, `${solve}(${ARGS});`, ...y];
}

const since = (from: OpCounts, to: OpCounts): OpCounts => ({ mul: to.mul - from.mul, add: to.add - from.add, div: to.div - from.div, fn: to.fn - from.fn });
const scaleOps = (o: OpCounts, f: number): OpCounts => ({ mul: o.mul * f, add: o.add * f, div: o.div * f, fn: o.fn * f });
