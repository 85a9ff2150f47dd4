// The two iteration matrices of radau5.ts, factored in place: E1 = γ/h I − J
// (real, n × n) and E2 = (α + iβ)/h I − J (complex, n × n), as RADAU5 does
// (its DECOMR and DECOMC, LINPACK's DEC and DECC: Gaussian elimination with
// partial pivoting). Why not analysis/dense-lu.ts: that LU equilibrates and
// builds sparse factors, allocating per factorisation, for the implicit
// function theorem's one-off solves; radau factors at every step size
// change (the humanoid falling: ~1100 times a simulated second), where its
// allocations and E2 in its real 2n × 2n form (twice a complex LU's flops)
// were a fifth of the run's time. Here the buffers are made once and the
// complex matrix is stored as re/im pairs.
//
// Glossary: a the factors, row-major (complex: re at 2(i n + j), im after);
// perm the pivot rows (LINPACK's IP: step k swapped rows k and perm[k]).

// Singular: a pivot exactly zero (or not finite), as LINPACK's DEC judges. Not a pivot small
// against the matrix's largest entry: the matrices are not equilibrated, and on a stiff problem
// (Van der Pol at ε = 1e-12, J's rows 1 and 1e12) an honest pivot is 1e-14 of the largest entry.

/**
 * E1's LU in place: a is n × n row-major; false when a pivot vanishes. nz (n) is scratch: the
 * pivot row's non-zero columns, the only ones its update touches (the rows der(q) = qd of a
 * mechanism's J have one entry each, as dense-lu.ts exploits).
 */
export function factorReal(n: number, a: Float64Array, perm: Int32Array, nz: Int32Array): boolean {
  for (let k = 0; k < n; k++) {
    let p = k,
      best = Math.abs(a[k * n + k]);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(a[i * n + k]);
      if (v > best) ((best = v), (p = i));
    }
    perm[k] = p;
    if (!(best > 0 && best < Infinity)) return false;
    const rk = k * n;
    if (p !== k) {
      const rp = p * n;
      for (let j = k; j < n; j++) {
        const t = a[rk + j];
        ((a[rk + j] = a[rp + j]), (a[rp + j] = t));
      }
      // the multipliers of earlier steps move with their rows
      for (let j = 0; j < k; j++) {
        const t = a[rk + j];
        ((a[rk + j] = a[rp + j]), (a[rp + j] = t));
      }
    }
    let c = 0;
    for (let j = k + 1; j < n; j++) if (a[rk + j] !== 0) nz[c++] = j;
    const pivot = a[rk + k];
    for (let i = k + 1; i < n; i++) {
      const ri = i * n,
        l = a[ri + k];
      if (l === 0) continue;
      const m = (a[ri + k] = l / pivot);
      for (let t = 0; t < c; t++) a[ri + nz[t]] -= m * a[rk + nz[t]];
    }
  }
  return true;
}

/** b := E1⁻¹ b with the factors of factorReal */
export function solveReal(n: number, a: Float64Array, perm: Int32Array, b: Float64Array): void {
  for (let k = 0; k < n; k++) {
    const p = perm[k];
    if (p !== k) {
      const t = b[k];
      ((b[k] = b[p]), (b[p] = t));
    }
  }
  for (let i = 1; i < n; i++) {
    let s = b[i];
    for (let j = 0, ri = i * n; j < i; j++) s -= a[ri + j] * b[j];
    b[i] = s;
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = b[i];
    const ri = i * n;
    for (let j = i + 1; j < n; j++) s -= a[ri + j] * b[j];
    b[i] = s / a[ri + i];
  }
}

/** E2's LU in place: a is n × n complex (re, im pairs) row-major; false when a pivot vanishes; nz as factorReal's */
export function factorComplex(n: number, a: Float64Array, perm: Int32Array, nz: Int32Array): boolean {
  for (let k = 0; k < n; k++) {
    let p = k,
      best = Math.abs(a[2 * (k * n + k)]) + Math.abs(a[2 * (k * n + k) + 1]);
    for (let i = k + 1; i < n; i++) {
      const o = 2 * (i * n + k);
      const v = Math.abs(a[o]) + Math.abs(a[o + 1]);
      if (v > best) ((best = v), (p = i));
    }
    perm[k] = p;
    if (!(best > 0 && best < Infinity)) return false;
    const rk = 2 * k * n;
    if (p !== k) {
      const rp = 2 * p * n;
      for (let j = 0; j < 2 * n; j++) {
        const t = a[rk + j];
        ((a[rk + j] = a[rp + j]), (a[rp + j] = t));
      }
    }
    let c = 0;
    for (let j = k + 1; j < n; j++) if (a[rk + 2 * j] !== 0 || a[rk + 2 * j + 1] !== 0) nz[c++] = j;
    // 1 / pivot
    const pr = a[rk + 2 * k],
      pi = a[rk + 2 * k + 1];
    const d = pr * pr + pi * pi,
      ir = pr / d,
      ii = -pi / d;
    for (let i = k + 1; i < n; i++) {
      const ri = 2 * i * n,
        lr = a[ri + 2 * k],
        li = a[ri + 2 * k + 1];
      if (lr === 0 && li === 0) continue;
      const mr = lr * ir - li * ii,
        mi = lr * ii + li * ir;
      ((a[ri + 2 * k] = mr), (a[ri + 2 * k + 1] = mi));
      for (let t = 0; t < c; t++) {
        const j = 2 * nz[t],
          ur = a[rk + j],
          ui = a[rk + j + 1];
        a[ri + j] -= mr * ur - mi * ui;
        a[ri + j + 1] -= mr * ui + mi * ur;
      }
    }
  }
  return true;
}

/** (br + i bi) := E2⁻¹ (br + i bi) with the factors of factorComplex */
export function solveComplex(n: number, a: Float64Array, perm: Int32Array, br: Float64Array, bi: Float64Array): void {
  for (let k = 0; k < n; k++) {
    const p = perm[k];
    if (p !== k) {
      let t = br[k];
      ((br[k] = br[p]), (br[p] = t));
      t = bi[k];
      ((bi[k] = bi[p]), (bi[p] = t));
    }
  }
  for (let i = 1; i < n; i++) {
    let sr = br[i],
      si = bi[i];
    for (let j = 0, ri = 2 * i * n; j < i; j++) {
      const lr = a[ri + 2 * j],
        li = a[ri + 2 * j + 1];
      sr -= lr * br[j] - li * bi[j];
      si -= lr * bi[j] + li * br[j];
    }
    ((br[i] = sr), (bi[i] = si));
  }
  for (let i = n - 1; i >= 0; i--) {
    let sr = br[i],
      si = bi[i];
    const ri = 2 * i * n;
    for (let j = i + 1; j < n; j++) {
      const ur = a[ri + 2 * j],
        ui = a[ri + 2 * j + 1];
      sr -= ur * br[j] - ui * bi[j];
      si -= ur * bi[j] + ui * br[j];
    }
    const dr = a[ri + 2 * i],
      di = a[ri + 2 * i + 1],
      d = dr * dr + di * di;
    br[i] = (sr * dr + si * di) / d;
    bi[i] = (si * dr - sr * di) / d;
  }
}
