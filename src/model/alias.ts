// Alias elimination: equations x = ±y (connections produce many) and x = c
// are removed and x is substituted everywhere, as Modelica tools do. Only
// coefficients ±1 are aliases, so a gear's a_l = i a_r stays an equation
// (relaxing paper eq. 3 keeps it as a row). Residue equations and equations
// with relax() are never eliminated: they carry solution hints.
import { type Expr, add, mul, num, substitute } from '../expr/index.ts';
import { type FlatEquation, type FlatModel, kindOf } from './flatten.ts';
import { type Variable, variableOf } from './variable.ts';

/** variable = sign * of + offset; `of` undefined means the variable is the constant `offset` */
export interface Alias {
  readonly variable: Variable;
  readonly sign: number;
  readonly of: Variable | undefined;
  readonly offset: number;
}

export interface ReducedModel {
  readonly flat: FlatModel;
  /** the equations that remain, residuals and hints rewritten in representatives */
  readonly equations: readonly FlatEquation[];
  /** eliminated variables, resolved to a representative that remains (or a constant) */
  readonly aliases: ReadonlyMap<number, Alias>;
  /** start values carried over from eliminated aliases to their representatives */
  readonly starts: ReadonlyMap<number, number>;
}

/** x kinds that may be removed in favour of another variable or a constant */
const eliminable = (flat: FlatModel, v: Variable) => kindOf(flat, v) === 'algebraic';
/**
 * representative preference when both sides could go; a variable that is a tearing hint
 * (named in residue(), or declared tearing) stays, so reports name it as the library does
 */
const rank = (flat: FlatModel, v: Variable, hinted: ReadonlySet<number>) =>
  ({ state: 0, input: 1, time: 1, parameter: 1, derivative: 2, algebraic: 3 })[kindOf(flat, v)] - (hinted.has(v.id) || v.tearing ? 0.5 : 0);

interface Term {
  k: number;
  v: Variable;
}

/** residual = k1 v1 + k2 v2 + c, or k1 v1 + c, with plain variables; null otherwise */
function linearTerms(e: Expr): { terms: Term[]; c: number } | null {
  const parts = e.op === 'add' ? e.args : [e];
  let c = 0;
  const terms: Term[] = [];
  for (const p of parts) {
    if (p.op === 'const') c += p.value;
    else {
      const [k, base] = p.op === 'mul' && p.args.length === 2 && p.args[0].op === 'const' ? [p.args[0].value, p.args[1]] : [1, p];
      const v = variableOf(base);
      if (!v) return null;
      terms.push({ k, v });
    }
  }
  return terms.length >= 1 && terms.length <= 2 ? { terms, c } : null;
}

// (flat model) => equations without aliases, and the alias table
export function eliminateAliases(flat: FlatModel): ReducedModel {
  const alias = new Map<number, { sign: number; of: Variable | undefined; offset: number }>();
  const resolve = (v: Variable): { sign: number; of: Variable | undefined; offset: number } => {
    const a = alias.get(v.id);
    if (!a) return { sign: 1, of: v, offset: 0 };
    if (!a.of) return a;
    const r = resolve(a.of);
    const out = { sign: a.sign * r.sign, of: r.of, offset: a.sign * r.offset + a.offset };
    alias.set(v.id, out);
    return out;
  };
  const hinted = new Set(flat.equations.flatMap((eq) => eq.residues.map((x) => variableOf(x)?.id ?? -1)));
  const kept: FlatEquation[] = [];
  for (const eq of flat.equations) {
    const lin = eq.residues.length === 0 ? linearTerms(eq.residual) : null;
    if (!lin || !tryAlias(flat, lin, resolve, alias, hinted)) kept.push(eq);
  }
  const replace = new Map<number, Expr>();
  const aliases = new Map<number, Alias>();
  const starts = new Map<number, number>();
  const byId = new Map(flat.variables.map((v) => [v.id, v]));
  for (const id of alias.keys()) {
    const variable = byId.get(id)!;
    const r = resolve(variable);
    aliases.set(id, { variable, ...r });
    replace.set(id, r.of ? add(mul(r.sign, r.of.e), r.offset) : num(r.offset));
    if (r.of && variable.start !== undefined && r.of.start === undefined && !starts.has(r.of.id)) {
      starts.set(r.of.id, (variable.start - r.offset) / r.sign);
    }
  }
  // lhs and rhs stay as written, so that messages quote the user's equations
  const equations = kept.map((eq) => ({
    ...eq,
    residual: substitute(eq.residual, replace),
    residues: eq.residues.map((x) => representative(substitute(x, replace))),
  }));
  return { flat, equations, aliases, starts };
}

/** residue(-x) marks x just as residue(x) does */
function representative(e: Expr): Expr {
  return e.op === 'mul' && e.args.length === 2 && e.args[0].op === 'const' ? e.args[1] : e;
}

/** of two distinct representatives, the one to eliminate: an eliminable one, the higher rank (the less preferred representative), else the one declared later */
function eliminated(flat: FlatModel, x: Variable, y: Variable, hinted: ReadonlySet<number>): Variable | undefined {
  if (!eliminable(flat, x)) return eliminable(flat, y) ? y : undefined;
  if (!eliminable(flat, y)) return x;
  // what [x, y].sort(by rank descending, then id descending)[0] was
  return (rank(flat, x, hinted) - rank(flat, y, hinted) || x.id - y.id) < 0 ? y : x;
}

function tryAlias(
  flat: FlatModel,
  lin: { terms: Term[]; c: number },
  resolve: (v: Variable) => { sign: number; of: Variable | undefined; offset: number },
  alias: Map<number, { sign: number; of: Variable | undefined; offset: number }>,
  hinted: ReadonlySet<number>,
): boolean {
  // collect a * r + ... + d = 0 over representatives r: at most two (one per term), in order of first appearance
  let d = lin.c;
  const reps: Variable[] = [];
  const ks: number[] = [];
  for (const t of lin.terms) {
    const r = resolve(t.v);
    d += t.k * r.offset;
    if (!r.of) continue;
    const i = reps.indexOf(r.of);
    if (i >= 0) ks[i] += t.k * r.sign;
    else {
      reps.push(r.of);
      ks.push(0 + t.k * r.sign);
    }
  }
  // the representatives whose coefficients did not cancel
  const live = [0, 1].filter((i) => i < reps.length && ks[i] !== 0);
  if (live.length === 1) {
    const [v, a] = [reps[live[0]], ks[live[0]]];
    if (!eliminable(flat, v)) return false;
    alias.set(v.id, { sign: 1, of: undefined, offset: -d / a });
    return true;
  }
  if (live.length !== 2 || d !== 0) return false;
  const [x, y, a, b] = [reps[0], reps[1], ks[0], ks[1]];
  if (Math.abs(a) !== Math.abs(b)) return false;
  // eliminate the one that is eliminable and ranks lower (ties: declared later)
  const gone = eliminated(flat, x, y, hinted);
  if (gone === undefined) return false;
  const [kg, keep, kk] = gone === x ? [a, y, b] : [b, x, a];
  alias.set(gone.id, { sign: -kk / kg, of: keep, offset: 0 });
  return true;
}
