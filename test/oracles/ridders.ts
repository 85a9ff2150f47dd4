// Oracle helper: derivatives of a vector function by central differences with
// Richardson extrapolation (Ridders 1982; Numerical Recipes, 3rd ed., sec. 5.7,
// dfridr), plain numbers. The central first difference and the central second
// difference both have error expansions in even powers of h, so one tableau
// serves both; it also returns its own error estimate, which the loop oracle
// carries into its tolerance.

const CON = 1.4,
  CON2 = CON * CON,
  NTAB = 10,
  SAFE = 2;

export interface Extrapolated {
  value: number[];
  /** estimated absolute error, max over the entries */
  err: number;
}

const maxDiff = (a: readonly number[], b: readonly number[]) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

// (difference quotient D(h), first step h0) => lim_{h -> 0} D(h) by Ridders' tableau
export function extrapolate(D: (h: number) => number[], h0: number): Extrapolated {
  const a: number[][][] = Array.from({ length: NTAB }, () => []);
  let h = h0;
  a[0][0] = D(h);
  let best: Extrapolated = { value: a[0][0], err: Infinity };
  for (let i = 1; i < NTAB; i++) {
    h /= CON;
    a[0][i] = D(h);
    let fac = CON2;
    for (let j = 1; j <= i; j++) {
      a[j][i] = a[j - 1][i].map((v, k) => (v * fac - a[j - 1][i - 1][k]) / (fac - 1));
      fac *= CON2;
      const e = Math.max(maxDiff(a[j][i], a[j - 1][i]), maxDiff(a[j][i], a[j - 1][i - 1]));
      if (e <= best.err) best = { value: a[j][i], err: e };
    }
    // higher order is worse by a significant factor: stop
    if (maxDiff(a[i][i], a[i - 1][i - 1]) >= SAFE * best.err) break;
  }
  return best;
}

/** d/ds f(x + s v) at s = 0 */
export function directional(f: (x: number[]) => number[], x: readonly number[], v: readonly number[], h0 = 0.1): Extrapolated {
  const at = (s: number) => f(x.map((xi, i) => xi + s * v[i]));
  return extrapolate((h) => {
    const p = at(h),
      m = at(-h);
    return p.map((pi, k) => (pi - m[k]) / (2 * h));
  }, h0);
}

/** d^2/ds^2 f(x + s v) at s = 0 */
export function secondDirectional(f: (x: number[]) => number[], x: readonly number[], v: readonly number[], h0 = 0.2): Extrapolated {
  const at = (s: number) => f(x.map((xi, i) => xi + s * v[i]));
  const f0 = at(0);
  return extrapolate((h) => {
    const p = at(h),
      m = at(-h);
    return p.map((pi, k) => (pi - 2 * f0[k] + m[k]) / (h * h));
  }, h0);
}

/** the Jacobian of f at x (rows: entries of f, columns: entries of x), with the largest error estimate */
export function jacobian(f: (x: number[]) => number[], x: readonly number[], h0 = 0.1): { J: number[][]; err: number } {
  const cols = x.map((_, j) =>
    directional(
      f,
      x,
      x.map((_, k) => (k === j ? 1 : 0)),
      h0,
    ),
  );
  const m = cols.length ? cols[0].value.length : 0;
  return { J: Array.from({ length: m }, (_, i) => cols.map((c) => c.value[i])), err: Math.max(0, ...cols.map((c) => c.err)) };
}
