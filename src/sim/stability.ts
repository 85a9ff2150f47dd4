// Is fixed-step RK4 stable for this model at this state? (Issue 30: a stiff
// model run at a step beyond RK4's stability region oscillates boundedly and
// plausibly, and must not exit 0 with that answer.)
//
// The eigenvalues of J = df/dx that matter are the extreme ones: a few
// Arnoldi steps on Jacobian-vector products (forward differences of the
// derivatives, one evaluation each) give their Ritz values (Saad, Numerical
// Methods for Large Eigenvalue Problems, ch. 6; with m = n the whole
// spectrum). A mode that decays (Re mu < 0) but whose RK4 amplification
// |R(mu h)| exceeds 1, R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24 (Hairer &
// Wanner II, IV.2), grows in the numbers while it dies out in the model: the
// run would be wrong. Its eigenvector (inverse iteration on the small
// Hessenberg matrix, complex) names the variables that carry it.
import { eigenvalues } from '../analysis/eigenvalues.ts';
import type { ModelState } from '../codegen/state.ts';
import { KronError, SimulationError } from '../errors.ts';

/** RK4 steps between two stability checks (each costs at most 21 evaluations, ~0.5% of the 4000 between) */
export const STABILITY_EVERY = 1000;

/** Krylov dimension: the extreme eigenvalues of a mechanism converge in far fewer */
const KRYLOV = 20;
/** |R(z)| above 1 by more than the Ritz values' own error */
const MARGIN = 1e-6;
/**
 * RK4's region holds the left half-disc |z| < 2.616 (its boundary's nearest point, at 122 degrees;
 * 2.785 on the real axis, 2.828 on the imaginary): a model whose Ritz values all lie within
 * 2.6/h, by the Frobenius norm of H that bounds them, needs no eigenvalues (they cost ~0.3 ms)
 */
const SAFE_RADIUS = 2.6;

export interface Instability {
  /** the mode's eigenvalue (1/s) */
  re: number;
  im: number;
  /** |R(mu h)| at the step asked */
  amplification: number;
  /** the largest step at which RK4 keeps the mode (|R| <= 1) */
  stableStep: number;
  /** indices of the states that carry the mode, largest share first */
  states: number[];
}

/**
 * A probe state set like the run's (inputs, parameters, the workspace's Newton warm start): the
 * check's Jacobian-vector products run there and touch neither the run's workspace (its closures'
 * sign records) nor its statistics
 */
export function syncProbe(probe: ModelState, run: ModelState): void {
  probe.u.set(run.u);
  probe.p.set(run.p);
  for (let i = 0; i < run.w.length; i++) probe.w[i] = run.w[i];
}

/** RK4's step is beyond its stability region for a mode of the model: the integrator 'auto' goes on with radau */
export class StiffModeError extends SimulationError {}

/**
 * A SimulationError (StiffModeError) when RK4 at step h amplifies a decaying mode of the model at (t, x): names
 * the mode's variables (of `names`, the states), the largest stable step and one to use.
 * f: the derivatives at time t, on a probe state (syncProbe)
 */
export function checkRk4Step(names: readonly string[], f: (dx: Float64Array, x: Float64Array) => void, x: Float64Array, t: number, h: number): void {
  let found: Instability | undefined;
  try {
    found = rk4Instability(f, Float64Array.from(x), h);
  } catch (e) {
    if (e instanceof KronError) return; // a state next to a singular one: the run's own checks speak for it
    throw e;
  }
  if (!found) return;
  const named = found.states.slice(0, 6).map((i) => names[i]);
  const mode = found.im === 0 ? `${found.re.toPrecision(4)}` : `${found.re.toPrecision(4)} ± ${Math.abs(found.im).toPrecision(4)}i`;
  // a step of 1, 2 or 5 times a power of ten, 10% inside the region: it divides the usual sampling intervals
  const decade = 10 ** Math.floor(Math.log10(0.9 * found.stableStep));
  const suggested = Number(([5, 2, 1].find((k) => k * decade <= 0.9 * found.stableStep)! * decade).toPrecision(1));
  throw new StiffModeError(
    `fixed-step RK4 at step ${h} is unstable for this model at time ${t}: the mode with eigenvalue ${mode} 1/s (${named.join(', ')}${found.states.length > 6 ? ', ...' : ''}) decays in the model but grows ${found.amplification.toPrecision(3)}-fold per step in the numbers; RK4 keeps it below a step of ${found.stableStep.toPrecision(3)}`,
    {
      variables: named,
      hint: `use --integrator radau (stiff, error-controlled), or a smaller step (--step ${suggested}); --unsafe-step runs anyway, with an answer that is wrong`,
    },
  );
}

/** RK4's amplification |R(z)| of a mode with z = mu h */
export function rk4Amplification(re: number, im: number): number {
  // R(z) = 1 + z (1 + z/2 (1 + z/3 (1 + z/4))) by Horner, in complex arithmetic
  let pr = 1,
    pi = 0;
  for (const k of [4, 3, 2, 1]) {
    const nr = 1 + (pr * re - pi * im) / k,
      ni = (pr * im + pi * re) / k;
    pr = nr;
    pi = ni;
  }
  return Math.hypot(pr, pi);
}

/**
 * The first decaying mode RK4 at step h amplifies, or undefined.
 * f(dx, x): the derivatives at the run's time; x the state (not changed).
 */
export function rk4Instability(f: (dx: Float64Array, x: Float64Array) => void, x: Float64Array, h: number): Instability | undefined {
  const n = x.length;
  if (n === 0) return undefined;
  const f0 = new Float64Array(n);
  f(f0, x);
  const m = Math.min(n, KRYLOV);
  // Arnoldi with modified Gram-Schmidt: J V_m = V_m H_m + h_{m+1,m} v_{m+1} e_m^T
  const V: Float64Array[] = [];
  const H = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  let v: Float64Array = seededUnit(n);
  const xs = new Float64Array(n),
    fx = new Float64Array(n);
  const scale = Math.max(1, norm(x));
  let size = m;
  for (let j = 0; j < m; j++) {
    V.push(v);
    // J v by a forward difference, the step relative to the state's size
    const e = 1e-7 * scale;
    for (let i = 0; i < n; i++) xs[i] = x[i] + e * v[i];
    f(fx, xs);
    const w = new Float64Array(n);
    for (let i = 0; i < n; i++) w[i] = (fx[i] - f0[i]) / e;
    if (!w.every(Number.isFinite)) return undefined; // a state the model refuses: nothing to say about the step
    for (let i = 0; i <= j; i++) {
      H[i][j] = dot(w, V[i]);
      for (let k = 0; k < n; k++) w[k] -= H[i][j] * V[i][k];
    }
    const wn = norm(w);
    if (j + 1 < m) {
      if (wn <= 1e-12 * Math.max(1, Math.abs(H[j][j]))) {
        size = j + 1; // an invariant subspace: its eigenvalues are exact
        break;
      }
      H[j + 1][j] = wn;
      for (let k = 0; k < n; k++) w[k] /= wn;
      v = w;
    }
  }
  let frobenius = 0;
  for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) frobenius += H[i][j] * H[i][j];
  if (h * Math.sqrt(frobenius) < SAFE_RADIUS) return undefined;
  const Hm = H.slice(0, size).map((row) => row.slice(0, size));
  let worst: { re: number; im: number; amplification: number } | undefined;
  for (const mu of eigenvalues(Hm)) {
    if (!(mu.re < 0)) continue;
    const amplification = rk4Amplification(mu.re * h, mu.im * h);
    if (amplification > 1 + MARGIN && (!worst || amplification > worst.amplification)) worst = { ...mu, amplification };
  }
  if (!worst) return undefined;
  const mode = eigenvector(Hm, worst.re, worst.im);
  const weight = new Float64Array(n);
  const [yr, yi] = [new Float64Array(n), new Float64Array(n)];
  for (let k = 0; k < size; k++) {
    for (let i = 0; i < n; i++) {
      yr[i] += V[k][i] * mode.re[k];
      yi[i] += V[k][i] * mode.im[k];
    }
  }
  for (let i = 0; i < n; i++) weight[i] = Math.hypot(yr[i], yi[i]);
  const largest = Math.max(...weight);
  const states = [...weight.keys()].filter((i) => weight[i] >= 0.1 * largest).sort((a, b) => weight[b] - weight[a]);
  return { re: worst.re, im: worst.im, amplification: worst.amplification, stableStep: stableStep(worst.re, worst.im, h), states };
}

/** the largest s h, s in (0, 1], with |R(mu s h)| <= 1 (bisection: the region is star-shaped about 0 along a ray of Re < 0) */
function stableStep(re: number, im: number, h: number): number {
  let lo = 0,
    hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (rk4Amplification(re * mid * h, im * mid * h) <= 1) lo = mid;
    else hi = mid;
  }
  return lo * h;
}

/** an eigenvector of the small matrix A for the eigenvalue (re, im): inverse iteration, complex Gaussian elimination */
function eigenvector(A: readonly (readonly number[])[], re: number, im: number): { re: number[]; im: number[] } {
  const n = A.length;
  // A - mu' I with mu' a hair off mu, so that the solve is regular and its solution the eigenvector;
  // factored once (partial pivoting), then two solves of inverse iteration
  const shift = re + 1e-10 * Math.hypot(re, im, 1);
  const Mr = A.map((row, i) => row.map((a, j) => a - (i === j ? shift : 0)));
  const Mi = A.map((row, i) => row.map((_, j) => (i === j ? -im : 0)));
  const perm = [...A.keys()];
  const Lr: number[][] = A.map(() => new Array<number>(n).fill(0)),
    Li: number[][] = A.map(() => new Array<number>(n).fill(0));
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.hypot(Mr[r][c], Mi[r][c]) > Math.hypot(Mr[p][c], Mi[p][c])) p = r;
    [Mr[c], Mr[p], Mi[c], Mi[p], Lr[c], Lr[p], Li[c], Li[p], perm[c], perm[p]] = [Mr[p], Mr[c], Mi[p], Mi[c], Lr[p], Lr[c], Li[p], Li[c], perm[p], perm[c]];
    const dr = Mr[c][c],
      di = Mi[c][c],
      d2 = dr * dr + di * di || 1e-300;
    for (let r = c + 1; r < n; r++) {
      // the factor M[r][c] / M[c][c], kept for the solves
      const fr = (Mr[r][c] * dr + Mi[r][c] * di) / d2,
        fi = (Mi[r][c] * dr - Mr[r][c] * di) / d2;
      Lr[r][c] = fr;
      Li[r][c] = fi;
      for (let k = c; k < n; k++) {
        Mr[r][k] -= fr * Mr[c][k] - fi * Mi[c][k];
        Mi[r][k] -= fr * Mi[c][k] + fi * Mr[c][k];
      }
    }
  }
  let xr = new Array<number>(n).fill(1),
    xi = new Array<number>(n).fill(0);
  for (let iteration = 0; iteration < 2; iteration++) {
    const br = perm.map((k) => xr[k]),
      bi = perm.map((k) => xi[k]);
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < r; c++) {
        br[r] -= Lr[r][c] * br[c] - Li[r][c] * bi[c];
        bi[r] -= Lr[r][c] * bi[c] + Li[r][c] * br[c];
      }
    }
    const yr = new Array<number>(n).fill(0),
      yi = new Array<number>(n).fill(0);
    for (let r = n - 1; r >= 0; r--) {
      let sr = br[r],
        si = bi[r];
      for (let k = r + 1; k < n; k++) {
        sr -= Mr[r][k] * yr[k] - Mi[r][k] * yi[k];
        si -= Mr[r][k] * yi[k] + Mi[r][k] * yr[k];
      }
      const dr = Mr[r][r],
        di = Mi[r][r],
        d2 = dr * dr + di * di || 1e-300;
      yr[r] = (sr * dr + si * di) / d2;
      yi[r] = (si * dr - sr * di) / d2;
    }
    const s = Math.hypot(...yr, ...yi) || 1;
    xr = yr.map((v) => v / s);
    xi = yi.map((v) => v / s);
  }
  return { re: xr, im: xi };
}

function seededUnit(n: number): Float64Array {
  // a fixed, dense start vector: every mode has a share in it, and the same model gives the same verdict
  const v = new Float64Array(n);
  let s = 0x9e3779b9;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    v[i] = s / 4294967296 - 0.5;
  }
  const l = norm(v);
  return v.map((c) => c / l);
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
const norm = (a: Float64Array) => Math.sqrt(dot(a, a));
