// An independent oracle for mechanisms/rcgrid.ts: the grid's modified nodal
// analysis written out by hand (node (0,0) held at V by the source; every other
// node: sum over neighbours (v_j - v_k)/R + (u_k - v_k)/Rc = 0), solved by
// dense Gaussian elimination with partial pivoting, and the capacitor
// voltages integrated by classical RK4: du_k/dt = (v_k - u_k) / (Rc C).
export interface Grid {
  n: number;
  V: number;
  R: number;
  Rc: number;
  C: number;
}

/** node potentials for capacitor voltages u (row-major, n*n) */
export function nodePotentials(g: Grid, u: Float64Array): Float64Array {
  const N = g.n * g.n;
  const A = new Float64Array(N * N),
    b = new Float64Array(N);
  for (let r = 0; r < g.n; r++) {
    for (let c = 0; c < g.n; c++) {
      const k = r * g.n + c;
      if (k === 0) {
        A[0] = 1;
        b[0] = g.V;
        continue;
      }
      A[k * N + k] = -1 / g.Rc;
      b[k] = -u[k] / g.Rc;
      for (const [rr, cc] of [
        [r - 1, c],
        [r + 1, c],
        [r, c - 1],
        [r, c + 1],
      ]) {
        if (rr < 0 || cc < 0 || rr >= g.n || cc >= g.n) continue;
        A[k * N + k] -= 1 / g.R;
        A[k * N + rr * g.n + cc] += 1 / g.R;
      }
    }
  }
  return solveDense(N, A, b);
}

/** x of A x = b by Gaussian elimination with partial pivoting (A, b overwritten) */
export function solveDense(N: number, A: Float64Array, b: Float64Array): Float64Array {
  for (let k = 0; k < N; k++) {
    let p = k;
    for (let i = k + 1; i < N; i++) if (Math.abs(A[i * N + k]) > Math.abs(A[p * N + k])) p = i;
    if (p !== k) {
      for (let j = 0; j < N; j++) [A[k * N + j], A[p * N + j]] = [A[p * N + j], A[k * N + j]];
      [b[k], b[p]] = [b[p], b[k]];
    }
    for (let i = k + 1; i < N; i++) {
      const f = A[i * N + k] / A[k * N + k];
      if (f === 0) continue;
      for (let j = k; j < N; j++) A[i * N + j] -= f * A[k * N + j];
      b[i] -= f * b[k];
    }
  }
  const x = new Float64Array(N);
  for (let i = N - 1; i >= 0; i--) {
    let s = b[i];
    for (let j = i + 1; j < N; j++) s -= A[i * N + j] * x[j];
    x[i] = s / A[i * N + i];
  }
  return x;
}

/** du/dt at u */
export function gridDerivatives(g: Grid, u: Float64Array): Float64Array {
  const v = nodePotentials(g, u);
  return u.map((uk, k) => (v[k] - uk) / (g.Rc * g.C));
}

/** u at t = steps * h from u = 0 by classical RK4, sampled every `every` steps */
export function integrateGrid(g: Grid, h: number, steps: number, every: number): Float64Array[] {
  let u = new Float64Array(g.n * g.n);
  const out = [Float64Array.from(u)];
  for (let s = 1; s <= steps; s++) {
    const k1 = gridDerivatives(g, u);
    const k2 = gridDerivatives(
      g,
      u.map((x, i) => x + (h / 2) * k1[i]),
    );
    const k3 = gridDerivatives(
      g,
      u.map((x, i) => x + (h / 2) * k2[i]),
    );
    const k4 = gridDerivatives(
      g,
      u.map((x, i) => x + h * k3[i]),
    );
    u = u.map((x, i) => x + (h / 6) * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]));
    if (s % every === 0) out.push(Float64Array.from(u));
  }
  return out;
}
