// A real quadruped standing on the ground under PD (bench/contact-robots/go2.ts):
// menagerie's Go2, from its MJCF file with its collision geoms, started 2 cm
// above its home height, PD on every leg joint to the home posture. Oracles:
// its weight (the sum of its bodies' masses times g, from the file) against
// the floor's total normal force once settled; the base standing still; and
// MuJoCo (WebAssembly, same process) stepping the same file with the same PD
// law, whose soft-constraint contact is not Kron's law (the header of go2.ts
// says what is matched and how): base height within 1 mm, and MuJoCo's rest
// foot depth the one Kron's foot stiffness was derived from.
// MuJoCo's humanoid falling from the file's pose (bench/contact-robots/humanoid.ts):
// it falls as MuJoCo's does (torso height within 1.5 cm through the first
// second, against MuJoCo stepping the same file), lands forward and comes
// to rest where MuJoCo's does (within 1 cm high and 3 cm ahead at 2.5 s:
// its hands land on its thighs, which the file lets touch; without that
// self-contact it lay 19 cm further ahead), the floor then carrying its
// weight to 1e-3.
// bench/contact-robots.ts runs the full 10 s and 5 s.
import { afterAll, describe, expect, it } from 'vitest';
import { simulate } from '../../src/index.ts';
import { FOOT_STIFFNESS, G, type MujocoGo2, go2Kron, go2Mujoco } from '../../bench/contact-robots/go2.ts';
import { humanoidKron, humanoidMujoco } from '../../bench/contact-robots/humanoid.ts';

const base = ['base_free.r[1]', 'base_free.r[2]', 'base_free.r[3]'];
let mujoco: MujocoGo2 | undefined;
afterAll(() => mujoco?.peer.delete());

describe('Go2 standing on the floor under PD', () => {
  const go2 = go2Kron();
  const r = simulate(go2.compiled, {
    stop: 2,
    interval: 0.05,
    start: go2.start,
    signals: [...base, ...go2.normalForces],
    controller: go2.controller,
    contact: go2.contact,
  });
  const time = r.get('time');
  const at = (t: number) => time.findIndex((s) => Math.abs(s - t) < 1e-9);
  const weight = go2.mass * G;
  const normal = (i: number) => go2.normalForces.reduce((s, n) => s + r.get(n)[i], 0);

  it('once settled (1 s), the floor carries its weight to 1e-3, and nothing is NaN', () => {
    expect(go2.mass).toBeCloseTo(15.206408, 6); // go2.xml's <inertial> masses, summed by hand
    for (const n of r.names) expect(r.get(n).every(Number.isFinite), n).toBe(true);
    for (let i = at(1); i < time.length; i++) expect(Math.abs(normal(i) / weight - 1)).toBeLessThan(1e-3);
  });

  it("stands still: the base moves less than 0.1 mm from 1 s to 2 s (1 mm over the bench's 10 s)", () => {
    const [i, j] = [at(1), at(2)];
    const moved = Math.hypot(...base.map((n) => r.get(n)[j] - r.get(n)[i]));
    expect(moved).toBeLessThan(1e-4);
  });

  it("stands where MuJoCo stands it: base height within 1 mm of MuJoCo's at 0.5 s to 2 s; MuJoCo's rest foot depth is the one the foot law was made from", async () => {
    mujoco = await go2Mujoco();
    const steps = Math.round(0.05 / mujoco.step);
    const heights: [number, number][] = [];
    for (let i = 1; i < time.length; i++) {
      for (let k = 0; k < steps; k++) mujoco.advance();
      expect(mujoco.time()).toBeCloseTo(time[i], 9);
      if (time[i] >= 0.5) heights.push([r.get('base_free.r[3]')[i], mujoco.base()[2]]);
    }
    for (const [kron, mj] of heights) expect(Math.abs(kron - mj)).toBeLessThan(1e-3);
    // four feet on the floor, their mean depth a quarter of the weight over Kron's foot stiffness (to 1%)
    const depths = mujoco.depths();
    expect(depths).toHaveLength(4);
    const mean = depths.reduce((a, b) => a + b, 0) / 4;
    expect(Math.abs(mean / (weight / 4 / FOOT_STIFFNESS) - 1)).toBeLessThan(1e-2);
    expect(Math.abs(mujoco.normalForce() / weight - 1)).toBeLessThan(1e-3);
  });
});

describe("MuJoCo's humanoid falling on its plane", () => {
  it("falls as MuJoCo's does, lands forward and comes to rest on its weight", async () => {
    const h = humanoidKron();
    const torso = ['root.r[1]', 'root.r[3]', 'root.v[1]', 'root.v[2]', 'root.v[3]'];
    const r = simulate(h.compiled, { stop: 2.5, interval: 0.25, signals: [...torso, ...h.normalForces], contact: h.contact });
    const m = await humanoidMujoco();
    const time = r.get('time');
    const mujocoHeight: number[] = [];
    let mujocoAhead = 0;
    for (const t of time) {
      while (m.time() < t - 1e-9) m.advance();
      (mujocoHeight.push(m.base()[2]), (mujocoAhead = m.base()[0]));
    }
    m.peer.delete();
    time.forEach((t, i) => t <= 1 + 1e-9 && expect(Math.abs(r.get('root.r[3]')[i] - mujocoHeight[i]), `t = ${t}`).toBeLessThan(0.015));
    // down on the floor, forward as MuJoCo's (torso 0.26 m high, 0.9 m ahead), and still
    expect(r.final('root.r[3]')).toBeLessThan(0.3);
    expect(mujocoHeight.at(-1)!).toBeLessThan(0.3);
    expect(r.final('root.r[1]')).toBeGreaterThan(0.5);
    expect(Math.abs(r.final('root.r[3]') - mujocoHeight.at(-1)!)).toBeLessThan(0.01);
    expect(Math.abs(r.final('root.r[1]') - mujocoAhead)).toBeLessThan(0.03);
    expect(Math.hypot(r.final('root.v[1]'), r.final('root.v[2]'), r.final('root.v[3]'))).toBeLessThan(1e-3);
    const normal = h.normalForces.reduce((s, n) => s + r.final(n), 0);
    expect(Math.abs(normal / (h.mass * G) - 1)).toBeLessThan(1e-3);
  });
});
