// Affine forms over symbolic coefficients, the currency of symbolic block
// elimination: a row  0 = b + sum_v coef_v v  and a solved form
// x = b + sum_u coef_u u  have the same shape. Coefficients that are not
// constants or symbols are bound to temporaries as they are formed, so
// expressions stay shallow and every coefficient is computed once.
import { type Expr, ZERO, add, div, mul, neg } from '../expr/index.ts';
import { ByFingerprint, type Fingerprint, Fingerprints, isZeroFingerprint, negatedFingerprint } from '../expr/fingerprint.ts';
import { type Assign, Temp } from './plan-types.ts';

export interface Affine {
  b: Expr;
  /** variable id -> coefficient; structural zeros are absent */
  coef: Map<number, Expr>;
}

/** constants, symbols and their negations: free to repeat inline, not worth a store and a load */
function isTrivial(e: Expr): boolean {
  if (e.op === 'const' || e.op === 'sym') return true;
  return e.op === 'mul' && e.args.length === 2 && e.args[0].op === 'const' && e.args[0].value === -1 && e.args[1].op === 'sym';
}

/**
 * Temporaries for non-trivial expressions, one per distinct value, in
 * creation order. Distinct trees of one value (fingerprint.ts) share the
 * first one's temporary: the symmetric partner of an articulated-inertia
 * entry, the second triangle of a torn H. An expression whose value is
 * identically zero is ZERO; one whose value is minus a temporary's is that
 * temporary negated (a bar's f_a = -f_b: the rows of a chain's articulated
 * inertias at both ends of a bar).
 */
export class TempPool {
  readonly assigns: Assign[] = [];
  private readonly byExpr = new Map<number, Expr>();
  private readonly byValue = new ByFingerprint<Expr>();
  readonly fingerprints: Fingerprints;
  /** a pool forked from `parent` sees its bindings; adopt() takes a trial pool over */
  constructor(
    readonly prefix: string,
    private readonly parent?: TempPool,
  ) {
    this.fingerprints = parent?.fingerprints ?? new Fingerprints();
  }
  /** e bound to a temporary (or the one of its value); label: its name, or a function making it, called only for a new temporary */
  use(e: Expr, label: string | (() => string)): Expr {
    if (isTrivial(e)) return e;
    const t = this.lookup(e);
    if (t) return t;
    const fp = this.fingerprints.of(e);
    if (isZeroFingerprint(fp)) return ZERO;
    const same = this.lookupValue(fp);
    if (same) {
      this.byExpr.set(e.id, same);
      return same;
    }
    // -T for the value of a temporary T: a negation costs nothing (nodeOps), a product does
    const opposite = this.lookupValue(negatedFingerprint(fp));
    if (opposite) {
      const negated = neg(opposite);
      this.byExpr.set(e.id, negated);
      return negated;
    }
    const temp = new Temp(`${this.prefix}${typeof label === 'string' ? label : label()}`);
    this.assigns.push({ target: temp, expr: e });
    this.fingerprints.bind(temp, e, fp);
    this.byExpr.set(e.id, temp.e);
    this.byValue.set(fp, temp.e);
    return temp.e;
  }
  lookup(e: Expr): Expr | undefined {
    return this.byExpr.get(e.id) ?? this.parent?.lookup(e);
  }
  private lookupValue(fp: Fingerprint): Expr | undefined {
    return this.byValue.get(fp) ?? this.parent?.lookupValue(fp);
  }
  /** take over the bindings of a trial pool forked from this one */
  adopt(child: TempPool): void {
    for (const a of child.assigns) {
      this.assigns.push(a);
      this.byExpr.set(a.expr.id, a.target.e);
    }
    this.byValue.merge(child.byValue);
    for (const [id, t] of child.byExpr) this.byExpr.set(id, t);
  }
}

/**
 * Row with variable x replaced by its form: coef_x * (b_x + sum coef_u u),
 * the changed entries bound to temporaries of `pool` at once. Only the
 * entries the form touches are visited: a torn mass matrix's rows hold a
 * coefficient for every qdd, and the substitutions into them are O(n^2).
 */
export function substituteForm(row: Affine, x: number, form: Affine, pool: TempPool, label: string, name: (id: number) => string): void {
  const raw = row.coef.get(x);
  if (raw === undefined) return;
  // a product left unbound would be flattened into every c * e and multiplied again in each
  const c = pool.use(raw, () => `${label}/${name(x)}`);
  row.coef.delete(x);
  if (c === ZERO) return;
  row.b = pool.use(add(row.b, mul(c, form.b)), () => `${label}@0`);
  // forEach, not for-of: no [key, value] array per entry (a million of them in a chain's elimination)
  form.coef.forEach((e, u) => {
    const sum = pool.use(add(row.coef.get(u) ?? ZERO, mul(c, e)), () => `${label}/${name(u)}`);
    if (sum === ZERO) row.coef.delete(u);
    else row.coef.set(u, sum);
  });
}

/** bind every non-trivial coefficient of a row to a temporary */
export function materialize(row: Affine, pool: TempPool, label: string, name: (id: number) => string): Affine {
  const coef = new Map<number, Expr>();
  row.coef.forEach((e, u) => {
    const c = pool.use(e, () => `${label}/${name(u)}`);
    if (c !== ZERO) coef.set(u, c);
  });
  return { b: pool.use(row.b, () => `${label}@0`), coef };
}

/** x from 0 = b + coef_x x + sum_{u != x} coef_u u */
export function solveRow(row: Affine, x: number): Affine {
  const a = row.coef.get(x)!;
  const coef = new Map<number, Expr>();
  if (row.coef.size === 1) return { b: div(neg(row.b), a), coef };
  // one division and a multiplication per coefficient, not a division per coefficient
  const inverse = div(1, a);
  row.coef.forEach((e, u) => u !== x && coef.set(u, mul(-1, e, inverse)));
  return { b: mul(-1, row.b, inverse), coef };
}

/** the expression b + sum coef_u u, with u looked up by id */
export function affineExpr(form: Affine, sym: (id: number) => Expr): Expr {
  return add(form.b, ...[...form.coef].map(([u, e]) => mul(e, sym(u))));
}
