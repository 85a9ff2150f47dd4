// Code generation: a solve plan becomes the body of a JavaScript module whose
// `derivatives(t, x, dx, u, p, w)` computes every unknown into the workspace w
// and the state derivatives into dx. Code is split into many small functions
// (at most `chunk` statements and MAX_FUNCTION_CHARS each) over the one
// workspace (a plain array of doubles, runtime/dense.ts doubles()), so V8 optimises every one of them; within a function
// values live in local constants, and only what other functions read goes
// through the workspace. Nothing is allocated per call. Assignment lists are
// cut where their statements repeat, and functions equal up to shifted indices
// are emitted once and called with offsets (share.ts).
//
// The module is described as data as it is made (program.ts): its parts in
// order, every function's lines, the calls and dense solves in them recorded
// where their text is made, so that calls of shared functions get their
// offsets when the module is printed, and the WebAssembly target prints its
// own variant of the module from the same description.
//
// Glossary: t time, x states, dx their derivatives, u inputs, p parameters
// left symbolic, w workspace (unknowns, then compiler temporaries).
import type { Expr, Sym } from '../expr/index.ts';
import { type Assign, type AssignStep, type Checked, type SolvePlan, type Step, Temp, stepExprs } from '../structure/plan-types.ts';
import { splitOutputs } from '../structure/needed.ts';
import { Scope, localName } from './emitter.ts';
import { IdTable } from './id-table.ts';
import { type Elem, type Fn, type Value, elem, printBody, printFn } from './ir.ts';
import { ARGS, type Line, type Part, type Piece, type Program, printModule } from './program.ts';
import type { RuntimeName } from './runtime.ts';
import { newton } from './newton.ts';
import type { SubstitutionOptions, SubstitutionSlots } from './substitution.ts';
import { type IterationSlots, emitIterate } from './relax-iterate.ts';
import { type OpCounts, addOps, noOps } from './ops.ts';
import { columns, linear } from './linear.ts';
import { type Raw, type Shared, Shapes, Sharing, measure, pieces } from './share.ts';
import { Slots, isAtom, nameShape, readCounts } from './slots.ts';
import { Templating, loopRuns, typedArrayOf } from './templates.ts';
import { Deriving, type PivotCheck } from './template-derive.ts';

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
  /** the module as data (program.ts), which body prints: kept with ir, for the WebAssembly target */
  program?: Program;
  /** what templating made (GenerateOptions.templates) */
  templates?: TemplatesMade;
}

const PARAMS = ['t', 'x', 'u', 'p', 'w'];
/** V8 leaves functions with more than ~60 KB of bytecode to its slower tiers: stay well below */
const MAX_FUNCTION_CHARS = 30000;
export class Module {
  /** code outside functions (text, or described), straight-line functions that may be shared, functions of lines */
  readonly parts: (string | Part | Raw)[] = [];
  /**
   * the text of each line that calls a module function -> its pieces
   * (program.ts), recorded where the call is made: a function's lines are
   * looked up here when it is finished (structured)
   */
  private readonly sites = new Map<string, Piece[]>();
  private readonly shapes: Shapes;
  /** the node table of the straight-line functions' scopes, made one at a time (assignScope, fillArrays) */
  private readonly nodes = new IdTable<Value>(true);
  /** assignScope's symbol id -> how many of the function's expressions read it, one function at a time */
  private readonly readHere = new IdTable();
  /** assignScope's target id -> what reads of it print, one function at a time */
  private readonly locals = new IdTable<Value>(true);
  readonly ops = noOps();
  /** the run-time helpers the module's code calls (runtime/source.ts), recorded where a call is written */
  readonly runtime = new Set<RuntimeName>();
  private fn = 0;
  constructor(
    readonly slots: Slots,
    readonly chunk: number,
    /** symbol id -> expressions of the whole plan reading it */
    readonly reads: IdTable,
    /** successive substitution before Newton (GenerateOptions) */
    readonly substitution?: SubstitutionOptions,
    /** functions equal up to shifted indices (or numbers too: templates), collected as they are made (undefined: neither) */
    readonly sharing?: Sharing | Templating,
    /** keep every straight-line function's IR (GenerateOptions.ir) */
    readonly keepIr = true,
    /** how many expressions the plan evaluates: sizes the table of shape hashes */
    expressions = 0,
  ) {
    // a chain's assignments hold ~3.3 distinct nodes each: room for 4 spares the table's growth, in which
    // every node was placed again, each time (0.6 s of generating a chain of 1024's 6 s)
    this.shapes = new Shapes(4 * expressions);
  }

  /** a new function from `fill`; returns its name */
  function(prefix: string, fill: (scope: Scope) => void): string {
    const name = `${prefix}${this.fn++}`;
    const scope = new Scope(this.slots.ref, '  ', { next: 0 });
    fill(scope);
    addOps(this.ops, scope.ops);
    if (scope.solves.length) this.uses('choleskySolve');
    this.parts.push({ k: 'lines', name, lines: scope.lines.map((l) => this.structured(l, scope.solves)) });
    this.sites.set(`${name}(${ARGS});`, [{ call: name }, ';']); // the call its callers write
    return name;
  }

  /** the code being written calls these run-time helpers */
  uses(...names: RuntimeName[]): void {
    for (const n of names) this.runtime.add(n);
  }

  /** a line of text around a call of module function fn (within a condition, say); returns the line */
  line(before: string, fn: string, after: string): string {
    this.sites.set(
      `${before}${fn}(${ARGS})${after}`,
      [before, { call: fn }, after].filter((q) => q !== ''),
    );
    return `${before}${fn}(${ARGS})${after}`;
  }

  /** `const a = doubles(n), ...;`: arrays of n doubles (or of another initialiser, as written), declared as data */
  arrays(arrays: [string, number | string][]): void {
    if (arrays.some(([, n]) => typeof n === 'number')) this.uses('doubles');
    this.parts.push({ k: 'arrays', arrays });
  }

  /**
   * A line as the description keeps it: its pieces when its text (its
   * indentation taken off) is a recorded call site, or when it holds one of
   * the dense solves its function's scope made (Scope.solve); else its text.
   */
  structured(line: string, solves: readonly (readonly [number, string, string])[] = []): Line {
    const text = line.trimStart();
    const indent = line.slice(0, line.length - text.length);
    const pieces = this.sites.get(text);
    if (pieces) return { indent, pieces };
    for (const [k, H, c] of solves) {
      const call = `choleskySolve(${k}, ${H}, ${c})`;
      const at = text.indexOf(call);
      if (at >= 0) return { indent, pieces: [text.slice(0, at), { solve: [k, H, c] } as Piece, text.slice(at + call.length)].filter((q) => q !== '') };
    }
    return line;
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

  /** a function `name(t, x, u, p, w)` with this body, which may be shared (or derived: made under its name); returns its call */
  private raw(prefix: string, raw: Omit<Raw, 'name'> | ((name: string) => Raw)): string {
    const name = `${prefix}${this.fn++}`;
    const r: Raw = typeof raw === 'function' ? raw(name) : { name, ...raw };
    this.parts.push(r);
    if (typeof raw === 'function')
      this.key = undefined; // a derived function is its templating's already
    else if (this.sharing) this.key = this.sharing instanceof Templating ? this.sharing.add(r) : void this.sharing.add(r);
    else if (!this.keepIr) delete r.body;
    this.sites.set(`${name}(${ARGS});`, [{ call: name }, ';']); // printed with its offsets if shared
    return `${name}(${ARGS});`;
  }
  /** the template key of the function raw() took last (Templating.add) */
  private key: string | undefined;
  /** pieces matched to a piece lowered before instead of lowered (template-derive.ts; templates without IR kept) */
  deriving?: Deriving;
  /** lower every derived piece too and compare (tests) */
  verifyDerived = false;

  /**
   * Assignments split into functions of at most `chunk` statements and
   * MAX_FUNCTION_CHARS characters, cut where the statements repeat; returns
   * the calls. Within a function every value lives in a local constant; only
   * model variables and the temporaries read elsewhere are stored in w.
   */
  assigns(list: readonly Assign[], prefix = 'f', check?: PivotCheck): string[] {
    const calls: string[] = [];
    const emit = (part: readonly Assign[], repeated: boolean) => {
      // a piece like one lowered before is derived from it, not lowered (template-derive.ts)
      const derived = this.deriving?.derive(part, check);
      const scope = derived ? undefined : this.assignScope(part, check);
      const raw = scope && { body: scope.body, text: printBody(scope.body) };
      // a repeated piece is measured with indices of one width, so that all its copies are cut alike
      const size = raw ? (repeated ? measure(raw.text) : raw.text.length) : repeated ? derived!.measure : derived!.length;
      if (size > MAX_FUNCTION_CHARS && part.length > 1) {
        const half = part.length >> 1;
        emit(part.slice(0, half), repeated);
        emit(part.slice(half), repeated);
        return;
      }
      if (derived) {
        addOps(this.ops, derived.ops);
        if (derived.pivots) this.uses('pivotOk');
        if (this.verifyDerived) derived.verify(printBody(this.assignScope(part, check).body));
        calls.push(this.raw(prefix, derived.raw));
        return;
      }
      addOps(this.ops, scope!.ops);
      calls.push(this.raw(prefix, raw!));
      this.deriving?.register(part, check, raw!.body, raw!.text, measure(raw!.text), scope!.ops, this.key);
    };
    const shapes = list.map((a) => (Math.imul(this.shapes.of(a.expr) ^ nameShape(a.target.name), 31) + (a.pivot ? 3 : a.target instanceof Temp ? 1 : 2)) | 0);
    for (const [from, to, repeated] of pieces(shapes, this.chunk)) emit(list.slice(from, to), repeated);
    return calls;
  }

  /** the body of one function computing `part` */
  private assignScope(part: readonly Assign[], check?: PivotCheck): Scope {
    const local = this.locals;
    local.clear();
    const readHere = readCounts(
      part.map((a) => a.expr),
      this.readHere,
    );
    // straight-line: a slot is written here only once it is computed, and read back through its local
    const read = (sym: Sym) => {
      const s = local.find(sym.id);
      return s >= 0 ? local.obj(s)! : this.slots.ref(sym);
    };
    const scope = new Scope(read, '  ', { next: 0 }, true, this.nodes);
    scope.prepare(part.map((a) => a.expr));
    part.forEach((a, k) => {
      const id = a.target.id;
      const stored = !(a.target instanceof Temp) || this.reads.get(id) > readHere.get(id);
      const checked = a.pivot && check;
      if (!stored && !readHere.has(id) && !checked) return; // a temporary nobody reads
      let v = scope.value(a.expr);
      if ((readHere.has(id) || checked) && !isAtom(v)) {
        const vk = localName('v', k);
        scope.let(vk.s, v);
        v = vk;
      }
      local.setObj(local.slot(id), v); // later reads use the local, or the atom itself
      if (stored) scope.store(this.slots.element(a.target), v);
      // |p| > PIVOT_EPS * (largest |pivot| of the loop so far); NaN and exact zeros fail too
      // (a test, not arithmetic of the model: not in the op counts; the report counts the checks)
      if (checked) {
        scope.pivot(v, check.scale, check.flag);
        this.uses('pivotOk');
      }
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
      const scope = new Scope(this.slots.ref, '  ', { next: 0 }, false, this.nodes);
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

export interface GenerateOptions {
  /** statements per generated function */
  chunk?: number;
  /** share functions equal up to shifted indices (default true) */
  share?: boolean;
  /** torn nonlinear loops (not kinematic closures) try successive substitution before Newton (substitution.ts) */
  substitution?: SubstitutionOptions;
  /**
   * keep the straight-line functions' IR in Generated.ir (default true): the
   * WebAssembly target reads it; without it a large model's IR is let go as
   * it is printed (compile time and memory)
   */
  ir?: boolean;
  /**
   * emit functions equal up to their shifted indices and their numbers once,
   * as a template over an instance index with those from tables, and runs of
   * their calls as loops (templates.ts; in place of sharing). Default false:
   * compile() asks for it where report.templates says a template pays.
   * Without the IR kept (ir: false), a piece like one lowered before is
   * derived from it instead of lowered (template-derive.ts); 'verify' lowers
   * it as well and throws unless both print alike (tests)
   */
  templates?: boolean | 'verify';
}

/** what templating made (Generated.templates) */
export interface TemplatesMade {
  /** template functions emitted */
  functions: number;
  /** the flat functions they replace */
  instances: number;
  /** loops over consecutive instances */
  loops: number;
  /** groups of alike functions left flat, and why */
  flat: string[];
  /** pieces derived from a prototype, not lowered (template-derive.ts) */
  derived?: number;
  /** pieces like a prototype in outline that did not match one (lowered, as flat), the first few named with why */
  unmatched?: { count: number; examples: string[] };
}

/** the shared functions and their calls, or the templates' in the same shape, and the tables to declare before each */
function sharedOf(
  sharing: Sharing | undefined,
  templating: Templating | undefined,
  deriving: Deriving | undefined,
): Shared & { tables: Map<string, string>; made?: TemplatesMade } {
  if (templating) {
    const t = templating.templated(PARAMS);
    const first = (k: number) => t.templates[k].instances[0];
    return {
      functions: new Map(t.templates.map((tp, k) => [first(k), tp.fn])),
      calls: t.calls,
      tables: new Map(t.templates.map((tp, k) => [first(k), tp.tables])),
      made: { functions: t.templates.length, instances: t.calls.size, loops: 0, flat: t.flat, ...deriving?.made() },
    };
  }
  const shared = sharing ? sharing.shared(PARAMS) : { functions: new Map<string, Fn>(), calls: new Map<string, { fn: string; offsets: number[] }>() };
  return { ...shared, tables: new Map() };
}

/** dx from the workspace: one line per state, or (templated, many states) a loop over a table of their slots */
function derivativeCopy(derivativeSlots: readonly number[], templated: boolean): { tail: string[]; table?: string } {
  if (!templated || derivativeSlots.length < 8) return { tail: derivativeSlots.map((k, i) => `  dx[${i}] = w[${k}];`) };
  return {
    tail: [`  for (let i = 0; i < ${derivativeSlots.length}; i++) dx[i] = w[dxSlots[i]];`],
    table: `const dxSlots = ${typedArrayOf('Int32Array', derivativeSlots)};`,
  };
}

// (plan, options) => module body, op counts and workspace layout
export function generate(plan: SolvePlan, options: GenerateOptions = {}): Generated {
  const chunk = options.chunk ?? 800;
  const slots = new Slots(plan);
  const split = splitOutputs(plan);
  const keepIr = options.ir !== false;
  const templating = options.templates ? new Templating(keepIr) : undefined;
  const sharing = templating || options.share === false ? undefined : new Sharing(keepIr);
  const exprs = [...split.derivatives, ...split.outputs].flatMap(stepExprs);
  // sized for a symbol per expression (an assignment's target): the read counts' table does not grow
  const reads = readCounts(exprs, new IdTable(false, exprs.length));
  // lists are cut where the flat compile cuts them (numbers exact in the shapes): other cuts bind other
  // subexpressions to locals, and a product regrouped rounds otherwise; with the flat cuts the templated
  // code runs the flat code's operations in its order, the same numbers bit for bit
  const mod = new Module(slots, chunk, reads, options.substitution, templating ?? sharing, keepIr, exprs.length);
  if (templating && !keepIr) mod.deriving = new Deriving(slots, reads, templating);
  mod.verifyDerived = options.templates === 'verify';
  const calls = emitSteps(mod, split.derivatives);
  const ops = { ...mod.ops };
  const outputCalls = emitSteps(mod, split.outputs);
  const outputOps = { mul: mod.ops.mul - ops.mul, add: mod.ops.add - ops.add, div: mod.ops.div - ops.div, fn: mod.ops.fn - ops.fn };
  const derivativeSlots = plan.states.map((s) => slots.slot(s.derivative!));
  const shared = sharedOf(sharing, templating, mod.deriving);
  const copy = derivativeCopy(derivativeSlots, (shared.made?.functions ?? 0) > 0);
  // a wrong number never leaves silently: NaN or an infinity in any derivative makes the sum non-finite, an error
  const finite = derivativeSlots.length
    ? [`  let sum = 0;`, `  for (let i = 0; i < ${derivativeSlots.length}; i++) sum += dx[i];`, `  if (!Number.isFinite(sum)) fail('nonfinite', -1, t, sum);`]
    : [];
  const ir: Fn[] = [];
  // the straight-line functions printed, by the name they are printed under: their text, or a shared one's IR
  const straight = new Map<string, Raw | Fn>();
  const parts = mod.parts.flatMap((q): Part[] => {
    if (typeof q === 'string') return [{ k: 'code', s: q }];
    if ('k' in q) return [q];
    if (!shared.calls.has(q.name)) {
      if (q.body) ir.push({ name: q.name, params: PARAMS, body: q.body });
      straight.set(q.name, q);
      return [{ k: 'straight', name: q.name }];
    }
    // the shared function in place of the first function it replaces; the others are not printed
    const f = shared.functions.get(q.name);
    if (!f) return [];
    ir.push(f);
    straight.set(f.name, f);
    const tables = shared.tables.get(q.name);
    return [...(tables ? [{ k: 'code', s: tables } as const] : []), { k: 'straight', name: f.name }];
  });
  if (copy.table) parts.push({ k: 'code', s: copy.table });
  const program: Program = {
    parts,
    derivatives: calls.map((l) => mod.structured(l)),
    tail: [...copy.tail, ...finite],
    outputs: outputCalls.map((l) => mod.structured(l)),
    shared: Object.fromEntries(shared.calls),
    runtime: [...mod.runtime],
  };
  if (shared.made) shared.made.loops = loopRuns(program);
  const body = printModule(program, {
    straight: (name) => {
      const f = straight.get(name)!;
      return 'text' in f ? `function ${name}(${ARGS}) {\n${f.text}\n}` : printFn(f);
    },
  });
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
  // an unrolled factorisation counts as one function, as it always has
  const functions = parts.filter((q) => q.k === 'straight' || q.k === 'lines' || (q.k === 'code' && q.fn)).length + 2;
  return { body, ops, outputOps, layout, functions, ...(keepIr && { ir, program }), ...(shared.made && { templates: shared.made }) };
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
  const fallback = mod.line(`if (w[${check.flag}] !== 0) { w[${counter}] += 1; `, mod.fallback(checked), '; }');
  const body = mod.assigns(step.assigns, 'f', check);
  if (checked.continued) return [`if (w[${check.flag}] === 0) {`, ...body.map((c) => `  ${c}`), `  ${fallback}`, '}'];
  return [`w[${check.flag}] = 0; w[${check.scale}] = 0;`, ...body, fallback];
}
