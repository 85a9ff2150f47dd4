// ilqr: a double pendulum swung up from hanging to upright by iLQR, on Kron's exact derivatives.
//
// iLQR (Li & Todorov 2004; Tassa, Erez & Todorov 2012) optimises a torque
// sequence u_0 .. u_{N-1} for the discrete dynamics x_{k+1} = x_k + dt f(x_k, u_k)
// (x = [q, qd], f = [qd, qdd(q, qd, u)]): each iteration linearises the
// dynamics along the current trajectory, A_k = I + dt df/dx and
// B_k = dt df/du, solves the local LQR problem backwards (with a
// Levenberg-Marquardt term mu on Quu) and rolls the new controls out with a
// line search. The linearisation is the expensive part, and Kron gives it
// exactly as generated code: compile(model, { problem: 'inverse' }) and
// forwardDerivatives(q, qd, tau) return qdd and dqdd/dq, dqdd/dqd, dqdd/dtau
// (Carpentier & Mansard's identities on the tangents of the inverse
// dynamics), no finite differences.
//
// Run it: npx tsx ilqr.ts            (add --plot convergence.svg for the cost per iteration)
import { writeFileSync } from 'node:fs';
import { Mechanism, compile } from 'kron';

/** rod k: mass, length, centre of mass from its joint, inertia about the centre of mass (about z); gravity along -y */
export const rods = { m1: 1, L1: 0.5, lc1: 0.25, I1: 0.5 ** 2 / 12, m2: 0.8, lc2: 0.2, I2: (0.8 * 0.4 ** 2) / 12, g: 9.80665 };

const m = new Mechanism('swing-up');
const j1 = m.revolute('j1', { axis: [0, 0, 1] });
const link1 = m.body('link1', { m: rods.m1, rcm: [rods.lc1, 0, 0], I: [rods.I1 / 100, rods.I1, rods.I1] });
const elbow = m.bar('elbow', { r: [rods.L1, 0, 0] });
const j2 = m.revolute('j2', { axis: [0, 0, 1] });
const link2 = m.body('link2', { m: rods.m2, rcm: [rods.lc2, 0, 0], I: [rods.I2 / 100, rods.I2, rods.I2] });
m.connect(m.world.frame_b, j1.frame_a);
m.connect(j1.frame_b, link1.frame_a);
m.connect(j1.frame_b, elbow.frame_a);
m.connect(elbow.frame_b, j2.frame_a);
m.connect(j2.frame_b, link2.frame_a);

const inv = compile(m, { problem: 'inverse' }); // coordinates j1, j2

/** the problem: 2 s in steps of 10 ms, from hanging (q1 = -pi/2) to upright (q1 = pi/2), both at rest */
export const dt = 0.01,
  N = 200;
export const start = [-Math.PI / 2, 0, 0, 0],
  goal = [Math.PI / 2, 0, 0, 0];
/** cost: r/2 |u|^2 dt per step, and at the end 1/2 sum wf_i (x_i - goal_i)^2 */
export const r = 1e-2,
  wf = [1000, 1000, 100, 100];

const n = 4,
  nu = 2;

/** x_{k+1} and, when asked, A = dx_{k+1}/dx_k and B = dx_{k+1}/du_k (row-major), from Kron's exact derivatives */
export function step(x: readonly number[], u: readonly number[], jacobians = false): { next: number[]; A?: number[]; B?: number[] } {
  const q = x.slice(0, 2),
    qd = x.slice(2, 4);
  const d = inv.forwardDerivatives(q, qd, u);
  const next = [q[0] + dt * qd[0], q[1] + dt * qd[1], qd[0] + dt * d.qdd[0], qd[1] + dt * d.qdd[1]];
  if (!jacobians) return { next };
  const A = new Array<number>(n * n).fill(0),
    B = new Array<number>(n * nu).fill(0);
  for (let i = 0; i < n; i++) A[i * n + i] = 1;
  for (let i = 0; i < 2; i++) {
    A[i * n + 2 + i] = dt; // q' = qd
    for (let j = 0; j < 2; j++) {
      A[(2 + i) * n + j] = dt * d.dqdd_dq[i * 2 + j];
      A[(2 + i) * n + 2 + j] += dt * d.dqdd_dqd[i * 2 + j]; // beside the identity
      B[(2 + i) * nu + j] = dt * d.dqdd_dtau[i * 2 + j];
    }
  }
  return { next, A, B };
}

function rollout(us: readonly number[][]): { xs: number[][]; cost: number } {
  const xs = [start.slice()];
  let cost = 0;
  for (const u of us) {
    cost += 0.5 * r * (u[0] ** 2 + u[1] ** 2) * dt;
    xs.push(step(xs[xs.length - 1], u).next);
  }
  const x = xs[N];
  for (let i = 0; i < n; i++) cost += 0.5 * wf[i] * (x[i] - goal[i]) ** 2;
  return { xs, cost };
}

// small dense helpers (row-major): a^T b for a (p x q), b (p x s)
const tmul = (a: number[], b: number[], p: number, q: number, s: number) => {
  const c = new Array<number>(q * s).fill(0);
  for (let i = 0; i < q; i++) for (let j = 0; j < s; j++) for (let k = 0; k < p; k++) c[i * s + j] += a[k * q + i] * b[k * s + j];
  return c;
};
const mul = (a: number[], b: number[], p: number, q: number, s: number) => {
  const c = new Array<number>(p * s).fill(0);
  for (let i = 0; i < p; i++) for (let j = 0; j < s; j++) for (let k = 0; k < q; k++) c[i * s + j] += a[i * q + k] * b[k * s + j];
  return c;
};

/** one backward pass: feedback gains K_k (nu x n) and feed-forward steps kff_k, or undefined when Quu is not positive definite */
function backward(xs: number[][], us: number[][], mu: number): { K: number[][]; kff: number[][]; expected: number } | undefined {
  let Vx = xs[N].map((x, i) => wf[i] * (x - goal[i]));
  let Vxx = new Array<number>(n * n).fill(0);
  for (let i = 0; i < n; i++) Vxx[i * n + i] = wf[i];
  const K: number[][] = [],
    kff: number[][] = [];
  let expected = 0;
  for (let k = N - 1; k >= 0; k--) {
    const { A, B } = step(xs[k], us[k], true) as { A: number[]; B: number[] };
    const Qx = tmul(A, Vx, n, n, 1);
    const Qu = tmul(B, Vx, n, nu, 1).map((v, i) => v + r * dt * us[k][i]);
    const VA = mul(Vxx, A, n, n, n),
      VB = mul(Vxx, B, n, n, nu);
    const Qxx = tmul(A, VA, n, n, n),
      Qux = tmul(B, VA, n, nu, n);
    const Quu = tmul(B, VB, n, nu, nu).map((v, i) => v + (i % (nu + 1) === 0 ? r * dt + mu : 0));
    const det = Quu[0] * Quu[3] - Quu[1] * Quu[2];
    if (!(Quu[0] > 0 && det > 0)) return undefined;
    const inv2 = [Quu[3] / det, -Quu[1] / det, -Quu[2] / det, Quu[0] / det];
    const kk = mul(inv2, Qu, nu, nu, 1).map((v) => -v);
    const KK = mul(inv2, Qux, nu, nu, n).map((v) => -v);
    // V' = Q + K^T Quu k + K^T Qu + Qux^T k,   V'' = Qxx + K^T Quu K + K^T Qux + Qux^T K
    const QuuK = mul(Quu, KK, nu, nu, n),
      Quuk = mul(Quu, kk, nu, nu, 1);
    Vx = Qx.map((v, i) => v + [0, 1].reduce((s, j) => s + KK[j * n + i] * (Quuk[j] + Qu[j]) + Qux[j * n + i] * kk[j], 0));
    Vxx = Qxx.map((v, ij) => {
      const i = Math.floor(ij / n),
        j = ij % n;
      return v + [0, 1].reduce((s, a) => s + KK[a * n + i] * QuuK[a * n + j] + KK[a * n + i] * Qux[a * n + j] + Qux[a * n + i] * KK[a * n + j], 0);
    });
    Vxx = Vxx.map((v, ij) => 0.5 * (v + Vxx[(ij % n) * n + Math.floor(ij / n)]));
    expected += kk[0] * Qu[0] + kk[1] * Qu[1];
    K[k] = KK;
    kff[k] = kk;
  }
  return { K, kff, expected };
}

/** the controls u_k + alpha kff_k + K_k (x_k - xs_k) rolled out; undefined when the motion runs away (a step too long to trust) */
function forwardPass(
  xs: number[][],
  us: number[][],
  pass: { K: number[][]; kff: number[][] },
  alpha: number,
): { us: number[][]; xs: number[][]; cost: number } | undefined {
  const x = [start.slice()],
    next: number[][] = [];
  for (let k = 0; k < N; k++) {
    const dx = x[k].map((v, i) => v - xs[k][i]);
    const u = [0, 1].map((j) => us[k][j] + alpha * pass.kff[k][j] + pass.K[k].slice(j * n, j * n + n).reduce((s, v, i) => s + v * dx[i], 0));
    next.push(u);
    const to = step(x[k], u).next;
    // a runaway trial (speeds beyond 100 rad/s) is a rejected step of the line search, not a result
    if (!to.every((v) => Math.abs(v) < 100)) return undefined;
    x.push(to);
  }
  return { us: next, ...rollout(next) };
}

/** iLQR from zero torques: the cost per iteration, the torques and the trajectory found */
export function ilqr(maxIterations = 100): { costs: number[]; us: number[][]; xs: number[][] } {
  let us = Array.from({ length: N }, () => [0, 0]);
  let { xs, cost } = rollout(us);
  const costs = [cost];
  let mu = 1e-6;
  for (let it = 0; it < maxIterations; it++) {
    const pass = backward(xs, us, mu);
    if (!pass) {
      mu *= 10;
      continue;
    }
    let accepted = false;
    for (let alpha = 1; alpha > 1e-4 && !accepted; alpha /= 2) {
      const tried = forwardPass(xs, us, pass, alpha);
      if (tried && tried.cost < cost) [us, xs, cost, accepted] = [tried.us, tried.xs, tried.cost, true];
    }
    if (!accepted) {
      mu *= 10;
      if (mu > 1e6) break;
      continue;
    }
    mu = Math.max(1e-9, mu / 10);
    const gain = costs[costs.length - 1] - cost;
    costs.push(cost);
    if (gain < 1e-6 * cost) break;
  }
  return { costs, us, xs };
}

const cpu = process.cpuUsage();
export const result = ilqr();
const used = process.cpuUsage(cpu);
const end = result.xs[N];
console.log(`iLQR: ${result.costs.length - 1} iterations, ${((used.user + used.system) / 1e6).toFixed(2)} s CPU`);
const last = result.costs.length - 1;
result.costs.forEach((c, i) => (i < 5 || i % 10 === 0 || i === last) && console.log(`  iteration ${String(i).padStart(3)}  cost ${c.toExponential(6)}`));
console.log(
  `end state q = [${end.slice(0, 2).map((v) => v.toFixed(5))}], qd = [${end.slice(2).map((v) => v.toFixed(5))}]; goal q = [${goal.slice(0, 2).map((v) => v.toFixed(5))}], at rest`,
);
console.log(`largest torque ${Math.max(...result.us.flat().map(Math.abs)).toFixed(3)} N m`);

/** the cost per iteration on a log scale, as an SVG document (no plotting package: a polyline and decade lines) */
export function convergenceSvg(costs: readonly number[], title: string): string {
  const [W, H, left, right, top, bottom] = [640, 400, 70, 620, 50, 350];
  const lo = Math.floor(Math.log10(Math.min(...costs))),
    hi = Math.ceil(Math.log10(Math.max(...costs)));
  const x = (i: number) => left + (i / Math.max(1, costs.length - 1)) * (right - left);
  const y = (c: number) => bottom - ((Math.log10(c) - lo) / Math.max(1, hi - lo)) * (bottom - top);
  const decades = Array.from({ length: hi - lo + 1 }, (_, k) => lo + k).map(
    (d) =>
      `<line x1="${left}" x2="${right}" y1="${y(10 ** d)}" y2="${y(10 ** d)}" stroke="#ddd"/><text x="${left - 6}" y="${y(10 ** d) + 4}" text-anchor="end">1e${d}</text>`,
  );
  const step = costs.length > 40 ? 20 : costs.length > 10 ? 5 : 1;
  const ticks = Array.from({ length: Math.floor((costs.length - 1) / step) + 1 }, (_, k) => k * step).map(
    (i) => `<text x="${x(i)}" y="${bottom + 16}" text-anchor="middle">${i}</text>`,
  );
  const points = costs.map((c, i) => `${x(i).toFixed(2)},${y(c).toFixed(2)}`).join(' ');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="26" text-anchor="middle" font-size="14">${title}</text>`,
    ...decades,
    ...ticks,
    `<rect x="${left}" y="${top}" width="${right - left}" height="${bottom - top}" fill="none" stroke="#333"/>`,
    `<text x="${(left + right) / 2}" y="${H - 16}" text-anchor="middle">iteration</text>`,
    `<text transform="translate(18 ${(top + bottom) / 2}) rotate(-90)" text-anchor="middle">cost</text>`,
    `<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="${points}"/>`,
    '</svg>',
    '',
  ].join('\n');
}

const plot = process.argv.indexOf('--plot');
if (plot > 0 && process.argv[plot + 1]) {
  const title = `iLQR swing-up: ${last} iterations, ${((used.user + used.system) / 1e6).toFixed(2)} s CPU`;
  writeFileSync(process.argv[plot + 1], convergenceSvg(result.costs, title));
  console.log(`wrote ${process.argv[plot + 1]}`);
}
