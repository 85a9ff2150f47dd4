// Eigenvalues of a real square matrix (the A of a linearization): balancing
// by powers of two (exact: the eigenvalues do not change; a stiff spring
// beside light bodies puts entries 1e4 apart in A), reduction to upper
// Hessenberg form by stabilized elementary similarity transforms, then
// Francis' double-shift QR iteration (EISPACK balanc, elmhes and hqr, as in
// Numerical Recipes §11.5–11.6, 0-based here), with an exceptional shift
// every 10 iterations and LAPACK's budget of 30 max(10, n) iterations per
// eigenvalue, where hqr gives up after 30.
//
// Glossary
//   a   n x n, row-major copy, reduced in place
//   nn  the last row of the active (not yet deflated) part; l its first
//   t   the exceptional shifts applied so far
import { KronError } from '../errors.ts';

/** a complex eigenvalue re + i im */
export interface Eigenvalue {
  /** real part */
  re: number;
  /** imaginary part */
  im: number;
}

/** (A) => its eigenvalues, complex pairs adjacent, sorted by real part descending, then imaginary part */
export function eigenvalues(A: readonly (readonly number[])[]): Eigenvalue[] {
  const a = A.map((row) => [...row]);
  balance(a);
  hessenberg(a);
  const out = hqr(a);
  return out.sort((p, q) => q.re - p.re || q.im - p.im);
}

/** balanc: rows and columns scaled by powers of two until their norms are alike (a similarity: same eigenvalues) */
function balance(a: number[][]): void {
  const n = a.length,
    RADIX = 2,
    SQRDX = RADIX * RADIX;
  let done = false;
  while (!done) {
    done = true;
    for (let i = 0; i < n; i++) {
      let r = 0,
        c = 0;
      for (let j = 0; j < n; j++) {
        if (j !== i) {
          c += Math.abs(a[j][i]);
          r += Math.abs(a[i][j]);
        }
      }
      if (c === 0 || r === 0 || !Number.isFinite(c + r)) continue;
      let g = r / RADIX,
        f = 1;
      const sum = c + r;
      while (c < g) ((f *= RADIX), (c *= SQRDX));
      g = r * RADIX;
      while (c > g) ((f /= RADIX), (c /= SQRDX));
      if ((c + r) / f < 0.95 * sum) {
        done = false;
        g = 1 / f;
        for (let j = 0; j < n; j++) a[i][j] *= g;
        for (let j = 0; j < n; j++) a[j][i] *= f;
      }
    }
  }
}

/** elmhes: a becomes upper Hessenberg with the same eigenvalues (entries below the subdiagonal zeroed) */
function hessenberg(a: number[][]): void {
  const n = a.length;
  for (let m = 1; m < n - 1; m++) {
    let x = 0,
      i = m;
    for (let j = m; j < n; j++) if (Math.abs(a[j][m - 1]) > Math.abs(x)) ((x = a[j][m - 1]), (i = j));
    if (i !== m) {
      for (let j = m - 1; j < n; j++) [a[i][j], a[m][j]] = [a[m][j], a[i][j]];
      for (let j = 0; j < n; j++) [a[j][i], a[j][m]] = [a[j][m], a[j][i]];
    }
    if (x === 0) continue;
    for (let r = m + 1; r < n; r++) {
      let y = a[r][m - 1];
      if (y === 0) continue;
      y /= x;
      a[r][m - 1] = 0;
      for (let j = m; j < n; j++) a[r][j] -= y * a[m][j];
      for (let j = 0; j < n; j++) a[j][m] += y * a[j][r];
    }
  }
}

const sign = (a: number, b: number) => (b >= 0 ? Math.abs(a) : -Math.abs(a));

/** hqr: the eigenvalues of an upper Hessenberg matrix (a is destroyed) */
function hqr(a: number[][]): Eigenvalue[] {
  const n = a.length;
  const wr = new Float64Array(n),
    wi = new Float64Array(n);
  let anorm = 0;
  for (let i = 0; i < n; i++) for (let j = Math.max(i - 1, 0); j < n; j++) anorm += Math.abs(a[i][j]);
  let nn = n - 1,
    t = 0;
  const maxIts = 30 * Math.max(10, n);
  while (nn >= 0) {
    let its = 0,
      l: number;
    do {
      // a small subdiagonal element splits the matrix
      for (l = nn; l >= 1; l--) {
        let s = Math.abs(a[l - 1][l - 1]) + Math.abs(a[l][l]);
        if (s === 0) s = anorm;
        if (Math.abs(a[l][l - 1]) + s === s) {
          a[l][l - 1] = 0;
          break;
        }
      }
      let x = a[nn][nn];
      if (l === nn) {
        // one root found
        wr[nn] = x + t;
        wi[nn--] = 0;
      } else {
        let y = a[nn - 1][nn - 1],
          w = a[nn][nn - 1] * a[nn - 1][nn];
        if (l === nn - 1) {
          // two roots found
          const p = 0.5 * (y - x),
            q = p * p + w;
          let z = Math.sqrt(Math.abs(q));
          x += t;
          if (q >= 0) {
            z = p + sign(z, p);
            wr[nn - 1] = wr[nn] = x + z;
            if (z) wr[nn] = x - w / z;
            wi[nn - 1] = wi[nn] = 0;
          } else {
            wr[nn - 1] = wr[nn] = x + p;
            wi[nn - 1] = -(wi[nn] = z);
          }
          nn -= 2;
        } else {
          if (its === maxIts)
            throw new KronError(`eigenvalues: the QR iteration did not converge in ${maxIts} iterations`, {
              hint: 'the matrix may hold non-finite or extreme entries',
            });
          if (its > 0 && its % 10 === 0) {
            // exceptional shift
            t += x;
            for (let i = 0; i <= nn; i++) a[i][i] -= x;
            const s = Math.abs(a[nn][nn - 1]) + Math.abs(a[nn - 1][nn - 2]);
            y = x = 0.75 * s;
            w = -0.4375 * s * s;
          }
          ++its;
          francisStep(a, l, nn, x, y, w);
        }
      }
    } while (l < nn - 1);
  }
  return Array.from(wr, (re, i) => ({ re, im: wi[i] }));
}

/** one double-shift QR step on rows and columns l..nn (shifts from x, y, w) */
function francisStep(a: number[][], l: number, nn: number, x: number, y: number, w: number): void {
  let m: number,
    p = 0,
    q = 0,
    r = 0,
    z: number;
  // look for two consecutive small subdiagonal elements
  for (m = nn - 2; m >= l; m--) {
    z = a[m][m];
    const rr = x - z,
      ss = y - z;
    p = (rr * ss - w) / a[m + 1][m] + a[m][m + 1];
    q = a[m + 1][m + 1] - z - rr - ss;
    r = a[m + 2][m + 1];
    const s = Math.abs(p) + Math.abs(q) + Math.abs(r);
    p /= s;
    q /= s;
    r /= s;
    if (m === l) break;
    const u = Math.abs(a[m][m - 1]) * (Math.abs(q) + Math.abs(r));
    const v = Math.abs(p) * (Math.abs(a[m - 1][m - 1]) + Math.abs(z) + Math.abs(a[m + 1][m + 1]));
    if (u + v === v) break;
  }
  for (let i = m + 2; i <= nn; i++) {
    a[i][i - 2] = 0;
    if (i !== m + 2) a[i][i - 3] = 0;
  }
  for (let k = m; k <= nn - 1; k++) {
    if (k !== m) {
      p = a[k][k - 1];
      q = a[k + 1][k - 1];
      r = k !== nn - 1 ? a[k + 2][k - 1] : 0;
      x = Math.abs(p) + Math.abs(q) + Math.abs(r);
      if (x !== 0) ((p /= x), (q /= x), (r /= x));
    }
    const s = sign(Math.sqrt(p * p + q * q + r * r), p);
    if (s === 0) continue;
    if (k === m) {
      if (l !== m) a[k][k - 1] = -a[k][k - 1];
    } else a[k][k - 1] = -s * x;
    p += s;
    x = p / s;
    y = q / s;
    z = r / s;
    q /= p;
    r /= p;
    for (let j = k; j <= nn; j++) {
      p = a[k][j] + q * a[k + 1][j];
      if (k !== nn - 1) {
        p += r * a[k + 2][j];
        a[k + 2][j] -= p * z;
      }
      a[k + 1][j] -= p * y;
      a[k][j] -= p * x;
    }
    const mmin = nn < k + 3 ? nn : k + 3;
    for (let i = l; i <= mmin; i++) {
      p = x * a[i][k] + y * a[i][k + 1];
      if (k !== nn - 1) {
        p += z * a[i][k + 2];
        a[i][k + 2] -= p * r;
      }
      a[i][k + 1] -= p * q;
      a[i][k] -= p;
    }
  }
}
