// Repeated subsystems: instances of one component class whose equations are
// the same up to parameter values and the variables of their neighbours
// (the links of a chain, the legs of a robot, the cells of a grid). A
// template would compile one instance as a unit with its interface and run
// it in a loop over an instance index with its parameters from a table, so
// that compile time and code size grow with the distinct subsystems, not
// the instances (issue 35). This is the first layer: finding them, and
// saying in the report whether a template would pay; the compile stays flat.
//
// Two instances are the same subsystem when their equations, walked in
// order, are the same expression trees once
// - a variable of the instance (its own or its sub-components', e.g. a
//   body's frames) is named by its place among the instance's variables;
// - a variable of another component (a neighbour's, the interface) is named
//   by the order it is first met in, so that j3's frame_a and j4's are alike;
// - a number (or a parameter, folded to its value as flattening folds it) is
//   a slot of the parameter table, unless it is 0, 1 or -1: those decide
//   what folding removes (a joint about z and one about y differ in which
//   products vanish), so they are structure, not parameter values.
// The connections inside an instance are compared by the connectors' places.
import { type Expr, fold } from '../expr/index.ts';
import { type Component, components } from './component.ts';
import { type Variable, variableOf } from './variable.ts';

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
  /** whether the compile used templates (not yet: the compile is flat) */
  used: boolean;
  /** the groups of at least MIN_INSTANCES instances, most equations first */
  classes: TemplateClass[];
  /** the equations of the model's components and connections inside them */
  equations: number;
  /** how many of them are in a group's instances */
  repeatedEquations: number;
  /** why the compile is flat, in a sentence */
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

/**
 * Canonical ids of expression shapes: equal ids are equal trees under the
 * renaming above. One per detection, shared by all its instances.
 */
class Shapes {
  private readonly ids = new Map<string, number>();
  id(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) this.ids.set(key, (id = this.ids.size));
    return id;
  }
}

const STRUCTURAL = new Set([0, 1, -1]);

/**
 * (one instance, its variables' places, the parameter values) => its
 * signature (equal signatures: the same subsystem) and how many numbers of
 * it would be table slots
 */
function signature(
  root: Component,
  shapes: Shapes,
  values: ReadonlyMap<number, number>,
  folds: boolean,
): { key: string; parameters: number; equations: number } {
  const subtree = components(root);
  const place = new Map<number, number>();
  for (const c of subtree) for (const v of c.variables) for (const w of v.derivative ? [v, v.derivative] : [v]) place.set(w.id, place.size);
  const foreign = new Map<number, number>();
  let parameters = 0;
  const memo = new Map<number, number>();
  const number = (x: number): string => {
    if (STRUCTURAL.has(x)) return `#${x}`;
    parameters++;
    return '#p';
  };
  const leaf = (n: Expr): string => {
    if (n.op === 'const') return number(n.value);
    const v = variableOf(n) as Variable | undefined;
    if (!v) return `s?${n.sym?.name ?? ''}`; // time, or a symbol of no variable: the same in every instance
    const value = folds && v.kind === 'parameter' ? values.get(v.id) : undefined;
    if (value !== undefined) return number(value);
    const own = place.get(v.id);
    if (own !== undefined) return `v${own}`;
    if (!foreign.has(v.id)) foreign.set(v.id, foreign.size);
    return `x${foreign.get(v.id)}`;
  };
  const shape = (e: Expr): number =>
    fold(e, memo, (n, args) =>
      n.args.length === 0 ? shapes.id(leaf(n)) : shapes.id(`${n.op}:${n.op === 'pow' ? n.value : ''}:${n.fn ?? ''}(${args.join(',')})`),
    );
  const parts: string[] = [root.constructor.name];
  let equations = 0;
  const connectorPlace = new Map(subtree.flatMap((c) => c.connectors).map((k, i) => [k, i]));
  for (const c of subtree) {
    for (const e of c.equations) parts.push(`${shape(e.lhs)}=${shape(e.rhs)}`);
    equations += c.equations.length;
    for (const [a, b] of c.connections) parts.push(`c${connectorPlace.get(a) ?? '?'}-${connectorPlace.get(b) ?? '?'}`);
    equations += c.connections.length; // a connection's equations: counted as one, a shape of its own
  }
  return { key: parts.join(';'), parameters, equations };
}

/**
 * (model, parameter values by variable id, whether flattening folds them)
 * => the repeated subsystems and whether templates would pay. Called on an
 * elaborated model (its equations complete).
 */
export function findTemplates(model: Component, values: ReadonlyMap<number, number>, foldParameters = true): TemplateReport {
  const roots = instanceRoots(model);
  // the class and equation count first: a signature is only made where a group could form
  const byClass = new Map<string, Component[]>();
  for (const c of roots) {
    const k = c.constructor.name;
    if (!byClass.has(k)) byClass.set(k, []);
    byClass.get(k)!.push(c);
  }
  const shapes = new Shapes();
  const groups = new Map<string, { class: string; equations: number; parameters: number; members: Component[] }>();
  let equations = 0;
  for (const [cls, members] of byClass) {
    for (const c of members) {
      if (members.length < MIN_INSTANCES) {
        equations += components(c).reduce((s, d) => s + d.equations.length + d.connections.length, 0);
        continue;
      }
      const s = signature(c, shapes, values, foldParameters);
      equations += s.equations;
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

function reasonOf(classes: readonly TemplateClass[], equations: number, repeated: number): string {
  const share = equations > 0 ? repeated / equations : 0;
  const percent = `${Math.round(100 * share)}%`;
  if (classes.length === 0) return `no component class repeats ${MIN_INSTANCES} or more times with the same equations: compiled flat`;
  const list = classes
    .slice(0, 4)
    .map((g) => `${g.class} x${g.instances}`)
    .join(', ');
  if (share < MIN_SHARE) return `repeated subsystems (${list}) hold ${percent} of ${equations} equations, under ${100 * MIN_SHARE}%: compiled flat`;
  return `repeated subsystems (${list}) hold ${percent} of ${equations} equations: a template would pay, but compiling templates is not built yet: compiled flat`;
}

/** whether a template would pay (the report's diagnostic is written only then) */
export const templatesWouldPay = (r: TemplateReport): boolean => r.classes.length > 0 && r.repeatedEquations >= MIN_SHARE * r.equations;
