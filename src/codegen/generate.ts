// Code generation: a solve plan becomes the body of a JavaScript module whose
// `derivatives(t, x, dx, u, p, w)` computes every unknown into the workspace w
// and the state derivatives into dx. Code is split into many small functions
// (at most `chunk` statements each) over the one Float64Array workspace, so V8
// optimises every one of them; nothing is allocated per call.
//
// Glossary: t time, x states, dx their derivatives, u inputs, p parameters
// left symbolic, w workspace (unknowns, then compiler temporaries).
import type { Expr, Sym } from '../expr/index.ts';
import { TIME, type Variable } from '../model/index.ts';
import type { Assign, LinearStep, NewtonStep, SolvePlan, Step } from '../structure/plan-types.ts';
import { splitOutputs } from '../structure/needed.ts';
import { Scope } from './emitter.ts';
import { type OpCounts, addOps, choleskyOps, luOps, noOps } from './ops.ts';
import { RUNTIME_SOURCE } from './runtime.ts';
import { cramerSolve, expressionOps } from '../structure/cramer.ts';

export interface Layout {
  states: string[];
  inputs: string[];
  parameters: string[];
  /** name of each workspace slot */
  workspace: string[];
  /** workspace slot of der(state i) */
  derivativeSlots: number[];
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
  /** blocks solved symbolically by Cramer's rule instead of a run-time factorisation */
  solvers: ReadonlyMap<number, 'cramer'>;
}

const ARGS = 't, x, u, p, w';

class Slots {
  readonly names: string[] = [];
  private readonly index = new Map<number, string>();
  constructor(plan: SolvePlan) {
    plan.states.forEach((v, i) => this.index.set(v.id, `x[${i}]`));
    plan.inputs.forEach((v, i) => this.index.set(v.id, `u[${i}]`));
    plan.parameters.forEach((v, i) => this.index.set(v.id, `p[${i}]`));
    for (const v of plan.unknowns) this.slot(v);
  }
  /** the workspace slot of a target, allocated on first use */
  slot(s: Sym): number {
    const ref = this.index.get(s.id);
    if (ref?.startsWith('w[')) return Number(ref.slice(2, -1));
    if (ref) throw new Error(`codegen: ${s.name} is known (${ref}) and cannot be assigned`);
    this.index.set(s.id, `w[${this.names.length}]`);
    this.names.push(s.name);
    return this.names.length - 1;
  }
  readonly ref = (s: Sym): string => {
    if (s.id === TIME.id) return 't';
    const r = this.index.get(s.id);
    if (!r) throw new Error(`codegen: ${s.name} is read before it is computed`);
    return r;
  };
}

class Module {
  readonly parts: string[] = [];
  readonly ops = noOps();
  /** blocks whose solver differs from the plan's choice */
  readonly solvers = new Map<number, 'cramer'>();
  private fn = 0;
  constructor(readonly slots: Slots, readonly chunk: number) {}

  /** a new function from `fill`; returns its name */
  function(prefix: string, fill: (scope: Scope) => void): string {
    const name = `${prefix}${this.fn++}`;
    const scope = new Scope(this.slots.ref, '  ', { next: 0 });
    fill(scope);
    addOps(this.ops, scope.ops);
    this.parts.push(`function ${name}(${ARGS}) {\n${scope.lines.join('\n')}\n}`);
    return name;
  }

  /** assignments split into functions of at most `chunk` statements; returns the calls */
  assigns(list: readonly Assign[], prefix = 'f'): string[] {
    const calls: string[] = [];
    for (let i = 0; i < list.length; i += this.chunk) {
      const part = list.slice(i, i + this.chunk);
      const targets = part.map((a) => `w[${this.slots.slot(a.target)}]`);
      calls.push(this.function(prefix, (s) => {
        s.prepare(part.map((a) => a.expr));
        part.forEach((a, k) => s.assign(targets[k], a.expr));
      }));
    }
    return calls.map((n) => `${n}(${ARGS});`);
  }

  /** one function writing each list of exprs into its array; returns the call */
  fillArrays(arrays: readonly (readonly [string, readonly Expr[]])[]): string {
    return `${this.function('fill', (s) => {
      s.prepare(arrays.flatMap(([, exprs]) => exprs));
      for (const [name, exprs] of arrays) exprs.forEach((e, i) => s.assign(`${name}[${i}]`, e));
    })}(${ARGS});`;
  }
}

// (plan, statements per function) => module body, op counts and workspace layout
export function generate(plan: SolvePlan, chunk = 200): Generated {
  const slots = new Slots(plan);
  const mod = new Module(slots, chunk);
  const split = splitOutputs(plan);
  const calls = emitSteps(mod, split.derivatives);
  const ops = { ...mod.ops };
  const outputCalls = emitSteps(mod, split.outputs);
  const outputOps = { mul: mod.ops.mul - ops.mul, add: mod.ops.add - ops.add, div: mod.ops.div - ops.div, fn: mod.ops.fn - ops.fn };
  const derivativeSlots = plan.states.map((s) => slots.slot(s.derivative!));
  const copy = derivativeSlots.map((k, i) => `  dx[${i}] = w[${k}];`);
  const indent = (lines: string[]) => lines.map((c) => `  ${c}`).join('\n');
  const main = `function derivatives(t, x, dx, u, p, w) {\n${indent(calls)}\n${copy.join('\n')}\n}`;
  const outputs = `// the signals derivatives() does not need, for sampling\nfunction outputs(t, x, u, p, w) {\n${indent(outputCalls)}\n}`;
  const body = ['"use strict";', RUNTIME_SOURCE, ...mod.parts, main, outputs, 'derivatives.outputs = outputs;', 'return derivatives;'].join('\n');
  const layout: Layout = {
    states: plan.states.map((v) => v.name),
    inputs: plan.inputs.map((v) => v.name),
    parameters: plan.parameters.map((v) => v.name),
    workspace: slots.names,
    derivativeSlots,
  };
  return { body, ops, outputOps, layout, functions: mod.parts.length + 2, solvers: mod.solvers };
}

function emitSteps(mod: Module, steps: readonly Step[]): string[] {
  const calls: string[] = [];
  for (const step of steps) {
    if (step.kind === 'assign') calls.push(...mod.assigns(step.assigns));
    else if (step.kind === 'linear') calls.push(...linear(mod, step));
    else calls.push(...newton(mod, step));
  }
  return calls;
}

function zWrites(mod: Module, z: readonly Variable[], from: string): string[] {
  return z.map((v, i) => `w[${mod.slots.slot(v)}] = ${from}[${i}];`);
}

// tearing paper: H z = c, solved numerically (Cholesky when H is structurally symmetric, else LU)
function linear(mod: Module, s: LinearStep): string[] {
  const k = s.z.length, H = `H${s.block}`, c = `c${s.block}`;
  const symbolic = cramerIfCheaper(s);
  if (symbolic) {
    // Carpanzano & Formenti: z by Cramer's rule, subdeterminants shared, no run-time factorisation
    mod.solvers.set(s.block, 'cramer');
    return [...mod.assigns(s.prelude, 'g'), ...mod.assigns(symbolic.assigns, 'm'), ...mod.assigns(s.z.map((v, i) => ({ target: v, expr: symbolic.z[i] })), 'z'), ...mod.assigns(s.y)];
  }
  mod.parts.push(`const ${H} = new Float64Array(${k * k}), ${c} = new Float64Array(${k});`);
  const prelude = mod.assigns(s.prelude, 'g');
  const fill = [...prelude, mod.fillArrays([[H, s.H], [c, s.c]])];
  const solve = mod.function('solve', (sc) => {
    for (const f of fill) sc.line(f);
    if (k === 1) {
      sc.line(`if (!(Math.abs(${H}[0]) > 0)) fail('singular', ${s.block}, t, ${c}[0]);`);
      sc.line(`w[${mod.slots.slot(s.z[0])}] = ${c}[0] / ${H}[0];`);
      return;
    }
    if (s.symmetric || s.paired) {
      // Cholesky when H is symmetric positive definite (a mass matrix), else LU on a fresh H
      sc.line(`if (!(${s.symmetric ? '' : `isSymmetric(${k}, ${H}) && `}choleskySolve(${k}, ${H}, ${c}))) {`);
      for (const f of fill) sc.line(`  ${f}`);
      sc.line(`  if (!luSolve(${k}, ${H}, ${c})) fail('singular', ${s.block}, t, 0);`);
      sc.line('}');
    } else {
      sc.line(`if (!luSolve(${k}, ${H}, ${c})) fail('singular', ${s.block}, t, 0);`);
    }
    for (const l of zWrites(mod, s.z, c)) sc.line(l);
  });
  addOps(mod.ops, k === 1 ? { ...noOps(), div: 1 } : s.symmetric || s.paired ? choleskyOps(k) : luOps(k));
  return [`${solve}(${ARGS});`, ...mod.assigns(s.y)];
}

const total = (o: OpCounts) => o.mul + o.add + o.div + o.fn;

/** Cramer's rule for 2 <= k <= 4 when it costs fewer operations than the run-time factorisation */
function cramerIfCheaper(s: LinearStep): { assigns: Assign[]; z: Expr[] } | undefined {
  const k = s.z.length;
  if (k < 2 || k > 4) return undefined;
  let solution: { assigns: Assign[]; z: Expr[] };
  try {
    solution = cramerSolve(s.H, s.c, k, `b${s.block}.`);
  } catch {
    return undefined; // structurally singular H: the numeric solve reports it at run time
  }
  const ops = expressionOps([...solution.assigns.map((a) => a.expr), ...solution.z]);
  return total(ops) < total(s.symmetric || s.paired ? choleskyOps(k) : luOps(k)) ? solution : undefined;
}

// tearing paper: Newton on the tearing variables, warm-started from the last solution kept in w
function newton(mod: Module, s: NewtonStep): string[] {
  const k = s.z.length, r = `r${s.block}`, J = `J${s.block}`, dz = `dz${s.block}`;
  mod.parts.push(`const ${r} = new Float64Array(${k}), ${J} = new Float64Array(${k * k}), ${dz} = new Float64Array(${k});`);
  const y = mod.assigns(s.y, 'y');
  const residual = mod.fillArrays([[r, s.residuals]]);
  const jacobian = [...mod.assigns(s.jacobianPrelude, 'd'), mod.fillArrays([[J, s.jacobian]])];
  const zSlots = s.z.map((v) => mod.slots.slot(v));
  // damped: a step that increases the residual norm is halved, up to 30 times
  const body = [
    'let small = false, lambda = 1, last = Infinity;',
    'for (let it = 0; ; it++) {',
    ...[...y, residual].map((l) => `  ${l}`),
    '  let norm = 0;',
    `  for (let i = 0; i < ${k}; i++) norm = Math.max(norm, Math.abs(${r}[i]));`,
    '  if (!(norm < last) && lambda > 1e-9 && it < 200) {',
    '    lambda *= 0.5;',
    ...zSlots.map((z, i) => `    w[${z}] += lambda * ${dz}[${i}];`),
    '    continue;',
    '  }',
    '  if (norm <= 1e-12 || (small && norm <= 1e-6)) return;',
    `  if (small || it >= 200 || !(norm < Infinity)) fail('newton', ${s.block}, t, norm);`,
    ...jacobian.map((l) => `  ${l}`),
    `  if (!luSolve(${k}, ${J}, ${r})) fail('jacobian', ${s.block}, t, norm);`,
    '  let step = 0, size = 0;',
    ...zSlots.map((z, i) => `  ${dz}[${i}] = ${r}[${i}]; w[${z}] -= ${r}[${i}]; step = Math.max(step, Math.abs(${r}[${i}])); size = Math.max(size, Math.abs(w[${z}]));`),
    '  small = step <= 1e-14 * (1 + size);',
    '  lambda = 1;',
    '  last = norm;',
    '}',
  ];
  const name = mod.function('newton', (sc) => body.forEach((l) => sc.line(l)));
  addOps(mod.ops, luOps(k));
  return [`${name}(${ARGS});`];
}
