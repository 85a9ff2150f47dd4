// Energy as an oracle: a passive chain conserves it, a damped pendulum
// dissipates it, exactly at the rate d qd^2.
//
// The energy is computed here from sampled frame_a signals and the body
// parameters (read back as the signals <body>.m, <body>.r_cm[i], <body>.I[i][j],
// world.g[i]), not from the compiler's equations. All vectors are
// world-resolved; R maps frame_a coordinates to world. The centre of mass is
// fixed in the body, at r_cm (frame_a coordinates) from frame_a's origin, so
//   r_c = r_a + R r_cm                   (position of the centre of mass)
//   v_c = v_a + w x (R r_cm)             (rigid-body velocity transfer)
//   w' I_w w = (R' w)' I (R' w),  I_w = R I R'   (I about the centre of mass)
//   E = sum_k 1/2 m v_c.v_c + 1/2 w' I_w w - m g.r_c   (+ spring energy)
import { describe, expect, it } from 'vitest';
import chain from '../../mechanisms/chain.ts';
import { compile } from '../../src/compile.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { simulate } from '../../src/sim/simulate.ts';
import type { SimulationResult } from '../../src/sim/result.ts';
import { Mechanism } from '../../src/library/multibody/index.ts';

const ijk = [1, 2, 3];
const frameSignals = (body: string) => [
  ...['r', 'v', 'w'].flatMap((q) => ijk.map((i) => `${body}.frame_a.${q}[${i}]`)),
  ...ijk.flatMap((i) => ijk.map((j) => `${body}.frame_a.R[${i}][${j}]`)),
];

/** what the energy needs of one body, from its parameters */
interface BodyData {
  name: string;
  m: number;
  rcm: number[];
  I: number[][];
}

function bodyData(c: CompiledModel, name: string): BodyData {
  return {
    name,
    m: c.signal(`${name}.m`),
    rcm: ijk.map((i) => c.signal(`${name}.r_cm[${i}]`)),
    I: ijk.map((i) => ijk.map((j) => c.signal(`${name}.I[${Math.min(i, j)}][${Math.max(i, j)}]`))),
  };
}

/** kinetic and potential energy of the bodies at every sample */
function energies(res: SimulationResult, bodies: readonly BodyData[], g: number[]): { T: Float64Array; V: Float64Array } {
  const n = res.length;
  const T = new Float64Array(n),
    V = new Float64Array(n);
  for (const b of bodies) {
    const col = (s: string) => res.get(`${b.name}.frame_a.${s}`);
    const r = ijk.map((i) => col(`r[${i}]`)),
      v = ijk.map((i) => col(`v[${i}]`)),
      w = ijk.map((i) => col(`w[${i}]`));
    const R = ijk.map((i) => ijk.map((j) => col(`R[${i}][${j}]`)));
    for (let k = 0; k < n; k++) {
      const Rk = R.map((row) => row.map((c) => c[k]));
      const wk = w.map((c) => c[k]);
      const rc = Rk.map((row) => row[0] * b.rcm[0] + row[1] * b.rcm[1] + row[2] * b.rcm[2]); // R r_cm
      const vc = [0, 1, 2].map((i) => v[i][k] + wk[(i + 1) % 3] * rc[(i + 2) % 3] - wk[(i + 2) % 3] * rc[(i + 1) % 3]);
      const wb = [0, 1, 2].map((j) => Rk[0][j] * wk[0] + Rk[1][j] * wk[1] + Rk[2][j] * wk[2]); // R' w
      const Iwb = b.I.map((row) => row[0] * wb[0] + row[1] * wb[1] + row[2] * wb[2]);
      T[k] += 0.5 * b.m * (vc[0] ** 2 + vc[1] ** 2 + vc[2] ** 2) + 0.5 * (wb[0] * Iwb[0] + wb[1] * Iwb[1] + wb[2] * Iwb[2]);
      V[k] -= b.m * [0, 1, 2].reduce((s, i) => s + g[i] * (r[i][k] + rc[i]), 0);
    }
  }
  return { T, V };
}

const gravity = (c: CompiledModel) => ijk.map((i) => c.signal(`world.g[${i}]`));

describe('energy', () => {
  for (const n of [4, 8]) {
    it(`a passive chain of ${n} links conserves energy over 10 s (RK4, step 1e-3) to 1e-6 relative`, () => {
      const c = compile(chain({ n }), { mode: 'torn' });
      const names = Array.from({ length: n }, (_, k) => `b${k + 1}`);
      const bodies = names.map((b) => bodyData(c, b));
      const res = simulate(c, { stop: 10, step: 1e-3, interval: 1e-2, signals: names.flatMap(frameSignals) });
      const { T, V } = energies(res, bodies, gravity(c));
      const E = T.map((t, k) => t + V[k]);
      // scale: the energy the chain moves between potential and kinetic (E(0) is near 0: it starts level)
      const scale = Math.max(Math.abs(E[0]), ...T);
      const drift = Math.max(...E.map((e) => Math.abs(e - E[0]))) / scale;
      console.log(`chain n=${n}: E(0) = ${E[0].toFixed(6)} J, max T = ${Math.max(...T).toFixed(4)} J, max |E - E(0)| / scale = ${drift.toExponential(2)}`);
      expect(T[0]).toBe(0);
      expect(drift).toBeLessThan(1e-6);
    });
  }

  it('a pendulum with a spring-damper joint loses energy monotonically, at the rate d qd^2', () => {
    const p = { m: 1.2, L: 0.6, Izz: 0.05, c: 3, q0: -0.4, d: 0.35 };
    const mech = new Mechanism('damped');
    const j1 = mech.revolute('j1', { axis: [0, 0, 1], q: 1.1, qd: 2, c: p.c, q0: p.q0, d: p.d });
    const link = mech.body('link', { m: p.m, rcm: [p.L, 0, 0], I: [p.Izz / 10, p.Izz, p.Izz] });
    mech.connect(mech.world.frame_b, j1.frame_a);
    mech.connect(j1.frame_b, link.frame_a);
    for (const mode of ['torn', 'relaxed'] as const) {
      const c = compile(mech, { mode });
      const h = 1e-3,
        stop = 8;
      const res = simulate(c, { stop, step: h, signals: [...frameSignals('link'), 'j1.q', 'j1.qd'] });
      const { T, V } = energies(res, [bodyData(c, 'link')], gravity(c));
      const q = res.get('j1.q'),
        qd = res.get('j1.qd');
      const E = T.map((t, k) => t + V[k] + 0.5 * p.c * (q[k] - p.q0) ** 2);
      const scale = Math.max(...E.map(Math.abs));
      // monotone: no sample gains energy (beyond the rounding of E itself)
      let rise = 0;
      for (let k = 1; k < E.length; k++) rise = Math.max(rise, E[k] - E[k - 1]);
      expect(rise, `${mode}: largest energy gain between samples`).toBeLessThanOrEqual(1e-12 * scale);
      // power balance: E(0) - E(t) = integral of d qd^2 (Simpson's rule over the samples)
      const steps = E.length - 1;
      expect(steps % 2).toBe(0);
      let dissipated = 0;
      for (let k = 0; k + 2 <= steps; k += 2) dissipated += (h / 3) * p.d * (qd[k] ** 2 + 4 * qd[k + 1] ** 2 + qd[k + 2] ** 2);
      const lost = E[0] - E[steps];
      console.log(
        `damped pendulum ${mode}: E(0) = ${E[0].toFixed(6)} J, lost ${lost.toFixed(6)} J, integral d qd^2 = ${dissipated.toFixed(6)} J, largest rise ${rise.toExponential(2)}`,
      );
      expect(T[steps], `${mode}: it comes nearly to rest`).toBeLessThan(0.01 * Math.max(...T));
      expect(Math.abs(lost - dissipated)).toBeLessThanOrEqual(1e-8 * lost);
    }
  });
});
