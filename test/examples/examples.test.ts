// Every program of examples/ runs, and what it prints it checked is checked
// again here against an oracle of its own: the pendulum's exact period (the
// complete elliptic integral, not the small-angle formula the example quotes),
// the four-bar's loop closed and its rocker's range from the law of cosines,
// the PD arm's rest from its static equilibrium solved by Newton, the
// inverse dynamics through the double pendulum's closed-form equations of
// motion, the linearization's eigenvalues +-i sqrt(g/l). The examples are
// imported in this process ('kron' is the sources here, as for the tests);
// the viewer's, which writes a file, runs as a program writing into a temporary folder.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ellipticK } from '../oracles/torque-free.ts';
import { doublePendulumAcceleration } from '../oracles/pendulum.ts';

const root = new URL('../../', import.meta.url).pathname;
const G = 9.80665;

/** the exact period of a pendulum of pivot inertia Ip swinging theta0 either side: 4 sqrt(Ip / (m g d)) K(sin^2(theta0 / 2)) */
const exactPeriod = (Ip: number, mgd: number, theta0: number) => 4 * Math.sqrt(Ip / mgd) * ellipticK(Math.sin(theta0 / 2) ** 2);

/** what an example printed while it was imported */
let printed: string[] = [];
beforeAll(() => {
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.join(' ')));
});
afterAll(() => vi.restoreAllMocks());

async function run<T>(name: string): Promise<{ module: T; output: string }> {
  printed = [];
  const module = (await import(`../../examples/${name}.ts`)) as T;
  return { module, output: printed.join('\n') };
}

describe('examples/', () => {
  it('every example is tested here, and each opens with a one-line summary that names it', () => {
    const files = readdirSync(join(root, 'examples'))
      .filter((f) => f.endsWith('.ts'))
      .sort();
    expect(files).toEqual(['fourbar.ts', 'ilqr.ts', 'inverse-dynamics.ts', 'linearization.ts', 'pendulum.ts', 'sweep.ts', 'urdf-pd.ts', 'viewer.ts']);
    for (const f of files) expect(readFileSync(join(root, 'examples', f), 'utf8')).toMatch(new RegExp(`^// ${f.slice(0, -3)}: \\S.*\\n//\\n`));
  });

  it('pendulum: the measured period is the exact one (elliptic integral), 0.0625% above the small-angle closed form', async () => {
    const { module: ex, output } = await run<typeof import('../../examples/pendulum.ts')>('pendulum');
    const { m, L, d } = ex.rod;
    const Ip = (m * L * L) / 12 + m * d * d;
    expect(Math.abs(ex.period / exactPeriod(Ip, m * G * d, ex.theta0) - 1)).toBeLessThan(1e-7);
    expect(ex.smallAngle).toBeCloseTo(2 * Math.PI * Math.sqrt(Ip / (m * G * d)), 12);
    expect(output).toContain(`measured period     ${ex.period.toFixed(6)} s`);
    expect(output).toContain('longer by           0.0625 %');
  });

  it('fourbar: the loop stays closed (Freudenstein), the crank turns, the rocker swings between the closed-form angles', async () => {
    const { module: ex, output } = await run<typeof import('../../examples/fourbar.ts')>('fourbar');
    const { a, b, c, d } = ex.links;
    const [q1, q2, q4] = ['j1.q', 'j2.q', 'j4.q'].map((s) => ex.result.get(s as 'j1.q'));
    // Freudenstein's equation of the crank angle t2 and the rocker angle t4, and the coupler's own angle t2 + q2
    const [K1, K2, K3] = [d / a, d / c, (a * a - b * b + c * c + d * d) / (2 * a * c)];
    let freudenstein = 0,
      coupler = 0;
    for (let k = 0; k < ex.result.length; k++) {
      freudenstein = Math.max(freudenstein, Math.abs(K1 * Math.cos(q4[k]) - K2 * Math.cos(q1[k]) + K3 - Math.cos(q1[k] - q4[k])));
      // B + b (cos, sin)(t2 + q2) is the rocker's end C
      const cx = a * Math.cos(q1[k]) + b * Math.cos(q1[k] + q2[k]) - d,
        cy = a * Math.sin(q1[k]) + b * Math.sin(q1[k] + q2[k]);
      coupler = Math.max(coupler, Math.abs(Math.hypot(cx, cy) - c), Math.abs(Math.atan2(cy, cx) - q4[k]));
    }
    expect(freudenstein).toBeLessThan(1e-10);
    expect(coupler).toBeLessThan(1e-10);
    expect(ex.largestResidual).toBeLessThan(1e-10);
    // Grashof, crank shortest: the crank goes all the way round, twice in 4 s
    expect(a + Math.max(b, c, d)).toBeLessThanOrEqual(b + c + d - Math.max(b, c, d));
    expect(ex.turns).toBeGreaterThan(2);
    // the rocker's extremes where |AC| = b + a and b - a: |AC|^2 = d^2 + c^2 + 2 d c cos(t4); sampled every ms, so to 1e-5
    const at = (r: number) => Math.acos((r * r - d * d - c * c) / (2 * d * c));
    expect(Math.abs(ex.rockerRange.low - at(b + a))).toBeLessThan(1e-5);
    expect(Math.abs(ex.rockerRange.high - at(b - a))).toBeLessThan(1e-5);
    expect(output).toMatch(/largest loop residual {2}\d\.\d\de-1[0-9] m/);
  });

  it('urdf-pd: the arm settles where kp (q - ref) carries its weight (the static equilibrium, by Newton)', async () => {
    const { module: ex, output } = await run<typeof import('../../examples/urdf-pd.ts')>('urdf-pd');
    const { m1, L1, lc1, m2, lc2 } = ex.arm,
      { kp } = ex.gains,
      ref = [ex.target.shoulder, ex.target.elbow];
    // joints about y, positive angles lower the arm: gravity's torques g (m1 lc1 + m2 L1) cos q1 + g m2 lc2 cos(q1 + q2), g m2 lc2 cos(q1 + q2)
    const residual = (q: number[]) => [
      kp * (q[0] - ref[0]) - G * ((m1 * lc1 + m2 * L1) * Math.cos(q[0]) + m2 * lc2 * Math.cos(q[0] + q[1])),
      kp * (q[1] - ref[1]) - G * m2 * lc2 * Math.cos(q[0] + q[1]),
    ];
    let q = [...ref];
    for (let k = 0; k < 30; k++) {
      const r = residual(q),
        s1 = G * (m1 * lc1 + m2 * L1) * Math.sin(q[0]),
        s12 = G * m2 * lc2 * Math.sin(q[0] + q[1]);
      const J = [
        [kp + s1 + s12, s12],
        [s12, kp + s12],
      ];
      const det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
      q = [q[0] - (J[1][1] * r[0] - J[0][1] * r[1]) / det, q[1] - (J[0][0] * r[1] - J[1][0] * r[0]) / det];
    }
    expect(Math.abs(ex.final.shoulder - q[0])).toBeLessThan(1e-6);
    expect(Math.abs(ex.final.elbow - q[1])).toBeLessThan(1e-6);
    expect(output).toContain(`error against the target at 3 s: shoulder ${(q[0] - ref[0]).toFixed(5)} rad, elbow ${(q[1] - ref[1]).toFixed(5)} rad`);
  });

  it('inverse-dynamics: the torques drive the closed-form double pendulum at the asked acceleration; tau = M qdd + h', async () => {
    const { module: ex, output } = await run<typeof import('../../examples/inverse-dynamics.ts')>('inverse-dynamics');
    const r = ex.rods;
    const p = { m1: r.m1, lc1: r.lc1, I1: r.I1, L1: r.L1, m2: r.m2, lc2: r.lc2, I2: r.I2, g: G };
    const qdd = doublePendulumAcceleration(p, ex.q[0], ex.q[1], ex.qd[0], ex.qd[1], ex.tau[0], ex.tau[1]);
    for (let i = 0; i < 2; i++) {
      expect(qdd[i]).toBeCloseTo(ex.qdd[i], 10);
      expect(ex.back[i]).toBeCloseTo(ex.qdd[i], 10);
    }
    // M by hand (the oracle's header): M22 = m2 lc2^2 + I2, M12 = M22 + m2 L1 lc2 cos q2
    const M22 = r.m2 * r.lc2 ** 2 + r.I2;
    expect(ex.M[3]).toBeCloseTo(M22, 12);
    expect(ex.M[1]).toBeCloseTo(M22 + r.m2 * r.L1 * r.lc2 * Math.cos(ex.q[1]), 12);
    expect(output).toMatch(/forward dynamics with them: qdd = \[2\.000000000000,-1\.000000000000\]/);
  });

  it('linearization: eigenvalues +-i sqrt(g/l) hanging down and +-sqrt(g/l) standing up, l = Ip / (m d)', async () => {
    const { module: ex, output } = await run<typeof import('../../examples/linearization.ts')>('linearization');
    const { m, d, Izz } = ex.rod;
    const w = Math.sqrt(G / ((Izz + m * d * d) / (m * d)));
    const sorted = (e: { re: number; im: number }[]) => e.map((v) => [v.re, v.im]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    const close = (got: number[][], want: number[][]) => got.forEach((v, k) => v.forEach((x, i) => expect(Math.abs(x - want[k][i])).toBeLessThan(1e-9)));
    close(sorted(ex.down.eigenvalues), [
      [0, -w],
      [0, w],
    ]);
    close(sorted(ex.up.eigenvalues), [
      [-w, 0],
      [w, 0],
    ]);
    // B: the torque's angular acceleration 1 / Ip
    expect(ex.down.B[1][0]).toBeCloseTo(1 / (Izz + m * d * d), 12);
    expect(output).toContain(`+ ${w.toFixed(9)}i`);
  });

  it('ilqr: swings the double pendulum up (cost falling every iteration), on Jacobians that central differences of the closed form confirm', async () => {
    const { module: ex, output } = await run<typeof import('../../examples/ilqr.ts')>('ilqr');
    const { costs, xs, us } = ex.result;
    for (let i = 1; i < costs.length; i++) expect(costs[i]).toBeLessThan(costs[i - 1]);
    expect(costs.at(-1)! / costs[0]).toBeLessThan(1e-5);
    // it got there: upright and at rest, within a milliradian
    xs[ex.N].forEach((x, i) => expect(Math.abs(x - ex.goal[i]), `x[${i}]`).toBeLessThan(1e-3));
    // the closed-form double pendulum (test/oracles/pendulum.ts) driven by the optimised torques lands there too
    const p = { ...ex.rods };
    let x = ex.start.slice();
    for (const u of us) {
      const qdd = doublePendulumAcceleration(p, x[0], x[1], x[2], x[3], u[0], u[1]);
      x = [x[0] + ex.dt * x[2], x[1] + ex.dt * x[3], x[2] + ex.dt * qdd[0], x[3] + ex.dt * qdd[1]];
    }
    x.forEach((v, i) => expect(Math.abs(v - xs[ex.N][i])).toBeLessThan(1e-9));
    // the gradients iLQR used: A and B of Kron's exact derivatives against central differences of the closed-form step
    const oracleStep = (y: number[], u: number[]) => {
      const qdd = doublePendulumAcceleration(p, y[0], y[1], y[2], y[3], u[0], u[1]);
      return [y[0] + ex.dt * y[2], y[1] + ex.dt * y[3], y[2] + ex.dt * qdd[0], y[3] + ex.dt * qdd[1]];
    };
    const h = 1e-5;
    for (const k of [0, 37, 100, 163, 199]) {
      const { A, B } = ex.step(xs[k], us[k], true) as { A: number[]; B: number[] };
      for (const [J, cols, at] of [
        [A, 4, 'x'],
        [B, 2, 'u'],
      ] as const) {
        for (let j = 0; j < cols; j++) {
          const shift = (s: number) =>
            at === 'x'
              ? oracleStep(
                  xs[k].map((v, i) => v + (i === j ? s : 0)),
                  us[k],
                )
              : oracleStep(
                  xs[k],
                  us[k].map((v, i) => v + (i === j ? s : 0)),
                );
          const [plus, minus] = [shift(h), shift(-h)];
          for (let i = 0; i < 4; i++) expect(Math.abs(J[i * cols + j] - (plus[i] - minus[i]) / (2 * h)), `d${at}: k ${k}, ${i}, ${j}`).toBeLessThan(1e-8);
        }
      }
    }
    expect(output).toMatch(/^iLQR: \d+ iterations/);
    // its plot: one point per iteration, equally spaced, each height affine in log10(cost) (a log axis), so falling costs draw lower
    const svg = ex.convergenceSvg(costs, 'test');
    const pts = /<polyline[^>]* points="([^"]+)"/
      .exec(svg)![1]
      .split(' ')
      .map((p) => p.split(',').map(Number));
    expect(pts).toHaveLength(costs.length);
    const slope = (pts.at(-1)![1] - pts[0][1]) / (Math.log10(costs.at(-1)!) - Math.log10(costs[0]));
    expect(slope).toBeLessThan(0);
    pts.forEach(([x, y], i) => {
      expect(x - pts[0][0]).toBeCloseTo((i * (pts.at(-1)![0] - pts[0][0])) / (costs.length - 1), 1);
      expect(y - pts[0][1]).toBeCloseTo(slope * (Math.log10(costs[i]) - Math.log10(costs[0])), 1);
    });
  });

  it("sweep: each length's period is the exact one, and 2 pi sqrt(L/g) (1 + 2 r^2 / 5 L^2)^(1/2) to first order", async () => {
    const { module: ex, output } = await run<typeof import('../../examples/sweep.ts')>('sweep');
    const { m, r } = ex.ball;
    expect(ex.rows.map((row) => row.L)).toEqual(ex.lengths);
    for (const row of ex.rows) {
      const Ip = m * row.L ** 2 + 0.4 * m * r * r;
      expect(Math.abs(row.period / exactPeriod(Ip, m * G * row.L, ex.theta0) - 1)).toBeLessThan(1e-7);
      expect(row.T0).toBeCloseTo(2 * Math.PI * Math.sqrt(row.L / G) * Math.sqrt(1 + (0.4 * r * r) / row.L ** 2), 12);
    }
    expect(output.split('\n')).toHaveLength(ex.lengths.length + 2);
  });

  it("viewer: writes a result file whose poses are the run's angles (elbow at L1 (cos q1, sin q1), link 2 turned by q1 + q2)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-example-'));
    try {
      // from the repository, as its tests run a TypeScript program: tsx maps 'kron' to src/ by tsconfig.json
      const out = join(dir, 'run.json');
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'examples/viewer.ts', out], { cwd: root, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain(`play it: npx kron view ${out}`);
      const run = JSON.parse(readFileSync(out, 'utf8')) as import('kron').PlaybackRun;
      // what kron view asks of a result file, and what it draws
      expect(run.model).toBe('double-pendulum');
      expect(run.time).toHaveLength(501);
      const frame = (member: string) => run.scene!.frames.findIndex((f) => f.members.includes(member));
      const [elbow, link2, n] = [frame('elbow.frame_b'), frame('link2.frame_a'), run.poses!.frames];
      expect(run.scene!.shapes.map((s) => s.name).sort()).toEqual(['link1', 'link2']);
      const [q1, q2] = [run.signals['j1.q'], run.signals['j2.q']];
      for (let k = 0; k < run.time.length; k += 50) {
        const pose = (f: number) => run.poses!.data.slice((k * n + f) * 7, (k * n + f + 1) * 7);
        const [x, y, z] = pose(elbow);
        expect(Math.hypot(x - 0.5 * Math.cos(q1[k]), y - 0.5 * Math.sin(q1[k]), z)).toBeLessThan(1e-6);
        // a rotation about z by q1 + q2: the quaternion (0, 0, sin, cos) of half that angle, up to sign
        const [, , , qx, qy, qz, qw] = pose(link2);
        const half = (q1[k] + q2[k]) / 2;
        expect(Math.abs(qx) + Math.abs(qy)).toBeLessThan(1e-6);
        expect(Math.abs(qz * Math.cos(half) - qw * Math.sin(half))).toBeLessThan(1e-6);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
