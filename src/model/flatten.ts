// Flattening: the component tree becomes one flat list of variables and scalar
// equations with hierarchical names; connections become equations (across
// quantities equal, through quantities sum to zero; an unconnected
// connector's through quantities are zero, as in Modelica).
import { type Expr, ZERO, add, mul, num, show, sub, substitute } from '../expr/index.ts';
import { ModelError } from '../errors.ts';
import { type Component, type Connector, type Model, type Quantity, components, flattenQuantity } from './component.ts';
import { type VarKind, type Variable, variableOf } from './variable.ts';

export interface FlatEquation {
  readonly index: number;
  readonly lhs: Expr;
  readonly rhs: Expr;
  /** lhs - rhs without residue() terms */
  readonly residual: Expr;
  /** tearing hints: arguments of residue() in this equation */
  readonly residues: readonly Expr[];
  /** the component path, or "connect(a, b)" */
  readonly origin: string;
}

export interface FlatModel {
  readonly name: string;
  /** every variable, parameters included, in declaration order */
  readonly variables: readonly Variable[];
  readonly equations: readonly FlatEquation[];
  /** parameter values by variable id: the declared ones with the overrides applied (never written into the model) */
  readonly parameterValues: ReadonlyMap<number, number>;
  /**
   * the problem's own causality: kinds by variable id that replace the declared
   * ones for this compile (inverse dynamics: a joint's qdd 'input', its tau
   * 'algebraic'); the variables themselves are not changed
   */
  readonly kinds: ReadonlyMap<number, VarKind>;
}

/** the kind of v in this flat model: the problem's override, else the declared kind */
export const kindOf = (flat: Pick<FlatModel, 'kinds'>, v: Variable): VarKind => flat.kinds.get(v.id) ?? v.kind;

export interface FlattenOptions {
  /** replace parameters by their values (default true: structural zeros vanish) */
  foldParameters?: boolean;
  /** parameter values by hierarchical name, overriding the declared ones */
  parameters?: Readonly<Record<string, number>>;
  /** kinds by variable id replacing the declared ones (the problem's causality, see FlatModel.kinds) */
  kinds?: ReadonlyMap<number, VarKind>;
}

export function describeEquation(e: FlatEquation): string {
  return `${e.origin}: ${show(e.lhs)} = ${show(e.rhs)}`;
}

/** connectors that take part in no connection, with the names of their across variables */
export function unconnectedConnectors(model: Model): { name: string; across: string[] }[] {
  const comps = components(model);
  const connected = new Set<Connector>(comps.flatMap((c) => c.connections.flat()));
  return comps
    .flatMap((c) => c.connectors)
    .filter((k) => !connected.has(k))
    .map((k) => ({
      name: k.name,
      across: Object.values(k.across)
        .flatMap(flattenQuantity)
        .map((e) => variableOf(e)?.name)
        .filter((n) => n !== undefined),
    }));
}

/** each component declares what depends on how it is connected (once: a model's own step, done before any compile) */
export function elaborate(model: Model): void {
  for (const c of components(model)) c.elaborate();
}

// (model, options) => flat variables and equations with hierarchical names, and the parameter values
export function flatten(model: Model, options: FlattenOptions = {}): FlatModel {
  elaborate(model);
  const comps = components(model);
  const variables = collectVariables(comps);
  const overrides = options.parameters ?? {};
  const parameterValues = withOverrides(variables, overrides);
  if (Object.keys(overrides).length) {
    derive(model, variables, parameterValues, overrides);
    checkParameters(comps, parameterValues);
  }
  const raw: Omit<FlatEquation, 'index'>[] = [];
  for (const c of comps) {
    for (const e of c.equations) raw.push({ lhs: e.lhs, rhs: e.rhs, residual: e.residual, residues: e.residues, origin: c.path || model.title });
  }
  // a loop, not push(...): a grid of 9e4 nodes has more connection equations than a call has arguments
  for (const e of connectionEquations(comps)) raw.push(e);
  const fold = options.foldParameters ?? true;
  const values = new Map<number, Expr>();
  if (fold) for (const [id, value] of parameterValues) values.set(id, num(value));
  // written out, not { ...e, index, lhs: ... }: V8 gave each object a hidden class of its own when a
  // spread's properties were overwritten (20k shapes at rcgrid n = 40), so every read of eq.residual
  // after was megamorphic and each equation carried its shape's ~350 bytes
  const at = (e: Omit<FlatEquation, 'index'>, index: number, lhs: Expr, rhs: Expr, residual: Expr): FlatEquation => ({
    lhs,
    rhs,
    residual,
    residues: e.residues,
    origin: e.origin,
    index,
  });
  const equations = raw.map((e, index) =>
    fold ? at(e, index, substitute(e.lhs, values), substitute(e.rhs, values), substitute(e.residual, values)) : at(e, index, e.lhs, e.rhs, e.residual),
  );
  return { name: model.title, variables, equations, parameterValues, kinds: options.kinds ?? new Map() };
}

function collectVariables(comps: Component[]): Variable[] {
  const out: Variable[] = [];
  const seen = new Set<string>();
  for (const c of comps) {
    for (const v of c.variables) {
      for (const w of v.derivative ? [v, v.derivative] : [v]) {
        if (seen.has(w.name)) throw new ModelError(`two variables named ${w.name}`, { variables: [w.name], hint: 'rename a component or a variable' });
        seen.add(w.name);
        out.push(w);
      }
    }
  }
  return out;
}

/** the model's derived parameters from the overridden values (Model.derivedParameters), into values; a parameter the overrides give keeps its value */
function derive(model: Model, variables: Variable[], values: Map<number, number>, overrides: Readonly<Record<string, number>>): void {
  const byName = new Map(variables.filter((v) => v.kind === 'parameter').map((v) => [v.name, v]));
  const derived = model.derivedParameters((name) => {
    const v = byName.get(name);
    if (!v) throw new ModelError(`no parameter named ${name} to derive from`, { variables: [name] });
    return values.get(v.id)!;
  });
  for (const [name, value] of Object.entries(derived)) {
    const v = byName.get(name);
    if (v && !(name in overrides)) values.set(v.id, value);
  }
}

/** each component's own check of its (possibly overridden) parameter values */
function checkParameters(comps: Component[], values: ReadonlyMap<number, number>): void {
  for (const c of comps) {
    c.checkParameters((name) => {
      const v = c.variables.find((x) => x.localName === name && x.kind === 'parameter');
      const value = v && values.get(v.id);
      if (value === undefined) throw new ModelError(`${c.path} has no parameter ${name} to check`, { component: c.path });
      return value;
    });
  }
}

// (variables, overrides by name) => every parameter's value by variable id; the variables are not touched
function withOverrides(variables: Variable[], overrides: Readonly<Record<string, number>>): Map<number, number> {
  const values = new Map<number, number>();
  for (const v of variables) if (v.kind === 'parameter') values.set(v.id, v.value!);
  for (const [name, value] of Object.entries(overrides)) {
    const v = variables.find((x) => x.name === name);
    if (!v || v.kind !== 'parameter') {
      const known = variables.filter((x) => x.kind === 'parameter').map((x) => x.name);
      throw new ModelError(`no parameter named ${name}`, {
        variables: [name],
        hint: `parameters of this model: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', ...' : ''}`,
      });
    }
    if (!Number.isFinite(value)) throw new ModelError(`parameter ${name} set to ${value}`, { variables: [name], hint: 'use a finite number' });
    values.set(v.id, value);
  }
  return values;
}

/**
 * Modelica's inside/outside rule: in connect() inside component c, a connector
 * of c itself (its named connector, or a child that is a connector, such as
 * its Frame) is "outside": seen from within, its through quantities enter
 * the set with the opposite sign. The same connector is "inside" in the sets
 * its parent makes, so a composite's own frame joins an inner and an outer set.
 */
function isOutside(c: Component, k: Connector): boolean {
  return k.localName === '' ? k.owner.parent === c : k.owner === c;
}

interface Element {
  connector: Connector;
  outside: boolean;
}

// union-find over connector elements (inside: 2i, outside: 2i + 1): each connection set yields its equations
function connectionEquations(comps: Component[]): Omit<FlatEquation, 'index'>[] {
  const all = comps.flatMap((c) => c.connectors);
  const index = new Map<Connector, number>(all.map((c, i) => [c, i]));
  const parent = new Int32Array(2 * all.length).map((_, i) => i);
  const used = new Uint8Array(2 * all.length).map((_, i) => (i % 2 === 0 ? 1 : 0));
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (const c of comps) {
    for (const [a, b] of c.connections) {
      for (const x of [a, b]) {
        if (!index.has(x))
          throw new ModelError(`connector ${x.name} is not part of the model`, {
            component: c.path,
            hint: `add its component with ${c.path || 'model'}.add(...)`,
          });
      }
      checkCompatible(a, b);
      const [ea, eb] = [a, b].map((x) => 2 * index.get(x)! + (isOutside(c, x) ? 1 : 0));
      used[ea] = used[eb] = 1;
      parent[find(ea)] = find(eb);
    }
  }
  const sets = new Map<number, Element[]>();
  for (let e = 0; e < parent.length; e++) {
    if (!used[e]) continue;
    const r = find(e);
    if (!sets.has(r)) sets.set(r, []);
    sets.get(r)!.push({ connector: all[e >> 1], outside: (e & 1) === 1 });
  }
  const out: Omit<FlatEquation, 'index'>[] = [];
  for (const set of sets.values()) out.push(...setEquations(set));
  return out;
}

function checkCompatible(a: Connector, b: Connector): void {
  for (const kind of ['across', 'through'] as const) {
    const ka = Object.keys(a[kind]).sort().join(','),
      kb = Object.keys(b[kind]).sort().join(',');
    if (ka !== kb) {
      throw new ModelError(`cannot connect ${a.name} to ${b.name}: ${kind} quantities {${ka}} and {${kb}} differ`, {
        component: a.owner.path,
        hint: 'connect connectors of the same type (e.g. a frame to a frame, a flange to a flange)',
      });
    }
    for (const key of Object.keys(a[kind])) {
      if (size(a[kind][key]) !== size(b[kind][key])) throw new ModelError(`cannot connect ${a.name} to ${b.name}: ${key} has different sizes`);
    }
  }
}

const size = (q: Quantity) => flattenQuantity(q).length;

function setEquations(set: Element[]): Omit<FlatEquation, 'index'>[] {
  const names = set.map((e) => e.connector.name);
  const origin = set.length === 1 ? `${names[0]} (unconnected)` : `connect(${names.join(', ')})`;
  const out: Omit<FlatEquation, 'index'>[] = [];
  const eq = (lhs: Expr, rhs: Expr) => out.push({ lhs, rhs, residual: sub(lhs, rhs), residues: [], origin });
  const first = set[0].connector;
  for (const key of Object.keys(first.across)) {
    const a = flattenQuantity(first.across[key]);
    for (const other of set.slice(1)) flattenQuantity(other.connector.across[key]).forEach((b, i) => eq(a[i], b));
  }
  for (const key of Object.keys(first.through)) {
    const parts = set.map((e) => flattenQuantity(e.connector.through[key]).map((x) => (e.outside ? mul(-1, x) : x)));
    parts[0].forEach((_, i) => eq(add(...parts.map((p) => p[i])), ZERO));
  }
  return out;
}
