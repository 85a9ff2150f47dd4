// Repeated subsystems: instances of one component class whose equations are
// the same up to parameter values and the variables of their neighbours
// (the links of a chain, the legs of a robot, the cells of a grid). A
// template would compile one instance as a unit with its interface and run
// it in a loop over an instance index with its parameters from a table, so
// that compile time and code size grow with the distinct subsystems, not
// the instances (issue 35). This is the first layer: finding them, and
// saying in the report whether a template would pay; compile-templates.ts
// decides, and codegen/templates.ts emits them.
//
// Two instances are the same subsystem when their equations, walked in
// order, are the same expression trees (compared by hash: Signer) once
// - a variable of the instance (its own or its sub-components', e.g. a
//   body's frames) is named by its place among the instance's variables;
// - a variable of another component (a neighbour's, the interface) is named
//   by the order it is first met in, so that j3's frame_a and j4's are alike;
// - a number (or a parameter, folded to its value as flattening folds it) is
//   a slot of the parameter table, unless it is 0, 1 or -1: those decide
//   what folding removes (a joint about z and one about y differ in which
//   products vanish), so they are structure, not parameter values.
// The connections inside an instance are compared by the connectors' places.
import type { Expr } from '../expr/index.ts';
import { type Component, components } from './component.ts';
import { variableOf } from './variable.ts';

/** a group of instances that one template could compile */
export interface TemplateClass {
  /** the component class (its constructor's name) */
  class: string;
  /** how many instances share the structure */
  instances: number;
  /** equations per instance (its own, its sub-components', and the connections inside it) */
  equations: number;
  /** the numbers of one instance that go to the parameter table (numbers other than 0, 1, -1) */
  parameters: number;
  /** the first instances' paths, for the reader */
  examples: string[];
}

/** what the report says of repeated subsystems (CompileReport.templates) */
export interface TemplateReport {
  /** whether the compile used templates (compile-templates.ts: set by compile(); findTemplates says false) */
  used: boolean;
  /** the groups of at least MIN_INSTANCES instances, most equations first */
  classes: TemplateClass[];
  /** the equations of the model's components and connections inside them */
  equations: number;
  /** how many of them are in a group's instances */
  repeatedEquations: number;
  /** why the compile is flat, or what the templates made, in a sentence */
  reason: string;
}

/** fewer instances than this are not a group: a loop over them saves less than its bookkeeping costs */
export const MIN_INSTANCES = 4;
/** a template pays when its groups hold at least this share of the model's equations (else the flat part dominates anyway) */
export const MIN_SHARE = 0.5;

/**
 * The components a template would compile as a unit: the model's children,
 * and the children of a component that only groups others (declares no
 * equations of its own), so that a sub-assembly's parts are found too.
 */
function instanceRoots(model: Component): Component[] {
  const out: Component[] = [];
  const stack = [...model.children].reverse();
  while (stack.length) {
    const c = stack.pop()!;
    if (c.equations.length === 0 && c.children.length > 0) stack.push(...[...c.children].reverse());
    else out.push(c);
  }
  return out;
}

const OPCODE: Readonly<Record<string, number>> = { const: 1, sym: 2, add: 3, mul: 4, div: 5, pow: 6, fn: 7, relax: 8, residue: 9 };
const mix = (h: number, x: number) => Math.imul(h ^ x, 0x9e3779b1) + 0x7f4a7c15;
const mix2 = (h: number, x: number) => Math.imul(h ^ (x >>> 0), 0x85ebca6b) ^ (h >>> 13);

/**
 * A node's shape as a 32-bit hash, and an instance's as two (each equation's
 * shape mixed into two sums, differently): numbers, not a string per node,
 * which cost a third of a second for the chain of 1024; one walk of its own,
 * not fold(), whose closure per node doubled the time. Two instances alike in
 * both sums are taken as the same subsystem: a collision could only merge two
 * groups of this report; a template compiler must check its instances exactly.
 */
class Signer {
  /** the walk's stack and a node's state on it (false: its arguments not yet pushed) */
  private readonly stack: Expr[] = [];
  private readonly expanded: boolean[] = [];
  private memo = new Map<number, number>();
  private place = new Map<number, number>();
  private foreign = new Map<number, number>();
  parameters = 0;

  constructor(
    private readonly values: ReadonlyMap<number, number>,
    private readonly folds: boolean,
  ) {}

  /** a fresh instance: its own variables by place */
  start(own: Map<number, number>): void {
    this.memo = new Map();
    this.place = own;
    this.foreign = new Map();
    this.parameters = 0;
  }

  /** a number: 0, 1 and -1 are structure (what folding removes), any other a parameter slot */
  private number(x: number): number {
    if (x === 0 || x === 1 || x === -1) return mix(0x51, x + 2);
    this.parameters++;
    return 0x52;
  }

  private leaf(n: Expr): number {
    if (n.op === 'const') return this.number(n.value);
    const v = variableOf(n);
    if (!v) return mix(0x53, n.sym?.id ?? -1); // time, or a symbol of no variable: the same symbol in every instance
    const value = this.folds && v.kind === 'parameter' ? this.values.get(v.id) : undefined;
    if (value !== undefined) return this.number(value);
    const own = this.place.get(v.id);
    if (own !== undefined) return mix(0x54, own);
    let k = this.foreign.get(v.id);
    if (k === undefined) this.foreign.set(v.id, (k = this.foreign.size));
    return mix(0x55, k);
  }

  shape(root: Expr): number {
    const { stack, expanded, memo } = this;
    stack.push(root);
    expanded.push(false);
    while (stack.length) {
      const n = stack[stack.length - 1];
      if (memo.has(n.id)) {
        stack.pop();
        expanded.pop();
        continue;
      }
      if (n.args.length === 0) {
        memo.set(n.id, this.leaf(n));
        continue;
      }
      if (!expanded[expanded.length - 1]) {
        expanded[expanded.length - 1] = true;
        for (const a of n.args) if (!memo.has(a.id)) (stack.push(a), expanded.push(false));
        continue;
      }
      let h = mix(mix(OPCODE[n.op], n.args.length), n.op === 'pow' ? n.value : 0);
      if (n.fn) for (let i = 0; i < n.fn.length; i++) h = mix(h, n.fn.charCodeAt(i));
      for (const a of n.args) h = mix(h, memo.get(a.id)!);
      memo.set(n.id, h);
    }
    return memo.get(root.id)!;
  }
}

/**
 * (one instance, a signer) => its signature (equal signatures: the same
 * subsystem), how many numbers of it would be table slots, and its equations
 */
function signature(root: Component, signer: Signer): { key: string; parameters: number; equations: number } {
  const subtree = components(root);
  const place = new Map<number, number>();
  for (const c of subtree) for (const v of c.variables) for (const w of v.derivative ? [v, v.derivative] : [v]) place.set(w.id, place.size);
  signer.start(place);
  let a = 0x2545f491,
    b = 0x6c8e9cf5,
    equations = 0;
  const connectorPlace = new Map(subtree.flatMap((c) => c.connectors).map((k, i) => [k, i]));
  for (const c of subtree) {
    for (const e of c.equations) {
      const l = signer.shape(e.lhs),
        r = signer.shape(e.rhs);
      a = mix(mix(a, l), r);
      b = mix2(mix2(b, r), l);
    }
    for (const [x, y] of c.connections) {
      a = mix(mix(a, connectorPlace.get(x) ?? -1), connectorPlace.get(y) ?? -1);
      b = mix2(mix2(b, connectorPlace.get(y) ?? -1), connectorPlace.get(x) ?? -1);
    }
    equations += c.equations.length + c.connections.length; // a connection: counted as one equation
  }
  return { key: `${root.constructor.name}:${equations}:${place.size}:${a >>> 0}:${b >>> 0}`, parameters: signer.parameters, equations };
}

/**
 * (model, parameter values by variable id, whether flattening folds them)
 * => the repeated subsystems and whether templates would pay. Called on an
 * elaborated model (its equations complete).
 */
export function findTemplates(model: Component, values: ReadonlyMap<number, number>, foldParameters = true): TemplateReport {
  const roots = instanceRoots(model);
  const count = (c: Component) => components(c).reduce((s, d) => s + d.equations.length + d.connections.length, 0);
  // by class first: a signature is only made where a group could form
  const byClass = new Map<string, Component[]>();
  for (const c of roots) {
    const k = c.constructor.name;
    if (!byClass.has(k)) byClass.set(k, []);
    byClass.get(k)!.push(c);
  }
  const equations = roots.reduce((s, c) => s + count(c), 0);
  const candidates = [...byClass].filter(([, members]) => members.length >= MIN_INSTANCES);
  // the classes' whole share bounds the groups': under MIN_SHARE, no signature can make templates pay
  // (signatures cost about a sixth of flattening's time: a model with few repeating parts is spared them)
  const bound = candidates.reduce((s, [, members]) => s + members.reduce((t, c) => t + count(c), 0), 0);
  if (bound < MIN_SHARE * equations) {
    const list = candidates.map(([cls, members]) => `${cls} x${members.length}`).join(', ');
    const reason =
      candidates.length === 0
        ? noRepeat
        : `the classes that repeat (${list}) hold ${percent(bound, equations)} of ${equations} equations at most, under ${100 * MIN_SHARE}%: compiled flat`;
    return { used: false, classes: [], equations, repeatedEquations: 0, reason };
  }
  const groups = new Map<string, { class: string; equations: number; parameters: number; members: Component[] }>();
  const signer = new Signer(values, foldParameters);
  for (const [cls, members] of candidates) {
    for (const c of members) {
      const s = signature(c, signer);
      const g = groups.get(s.key);
      if (g) g.members.push(c);
      else groups.set(s.key, { class: cls, equations: s.equations, parameters: s.parameters, members: [c] });
    }
  }
  const classes = [...groups.values()]
    .filter((g) => g.members.length >= MIN_INSTANCES && g.equations > 0)
    .map((g) => ({
      class: g.class,
      instances: g.members.length,
      equations: g.equations,
      parameters: g.parameters,
      examples: g.members.slice(0, 3).map((m) => m.path),
    }))
    .sort((a, b) => b.instances * b.equations - a.instances * a.equations || a.class.localeCompare(b.class));
  const repeatedEquations = classes.reduce((s, g) => s + g.instances * g.equations, 0);
  return { used: false, classes, equations, repeatedEquations, reason: reasonOf(classes, equations, repeatedEquations) };
}

const noRepeat = `no component class repeats ${MIN_INSTANCES} or more times with the same equations: compiled flat`;
const percent = (part: number, whole: number) => `${Math.round((100 * part) / Math.max(whole, 1))}%`;

function reasonOf(classes: readonly TemplateClass[], equations: number, repeated: number): string {
  if (classes.length === 0) return noRepeat;
  const list = classes
    .slice(0, 4)
    .map((g) => `${g.class} x${g.instances}`)
    .join(', ');
  if (repeated < MIN_SHARE * equations)
    return `repeated subsystems (${list}) hold ${percent(repeated, equations)} of ${equations} equations, under ${100 * MIN_SHARE}%: compiled flat`;
  return `repeated subsystems (${list}) hold ${percent(repeated, equations)} of ${equations} equations: a template would pay`;
}

/** whether a template would pay (the report's diagnostic is written only then) */
export const templatesWouldPay = (r: TemplateReport): boolean => r.classes.length > 0 && r.repeatedEquations >= MIN_SHARE * r.equations;
