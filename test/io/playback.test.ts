// `kron simulate --out run.json`: mechanisms' results carry the scene, the
// poses, the compile report and the integrator and step beside the unchanged { model, time, signals }.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { POSE_STRIDE, type PlaybackRun } from '../../src/io/types.ts';

const dir = mkdtempSync(join(tmpdir(), 'kron-playback-'));

async function simulateTo(model: string, ...args: string[]): Promise<PlaybackRun> {
  const out = join(dir, `${model}.json`);
  expect(await main(['simulate', `mechanisms/${model}.ts`, '--stop', '0.1', '--interval', '0.02', '--out', out, ...args])).toBe(0);
  return JSON.parse(readFileSync(out, 'utf8'));
}

describe('JSON results for the viewer', () => {
  it('a mechanism: signals as asked, plus scene, poses for every sample and frame, and the report', async () => {
    const run = await simulateTo('doublependulum', '--signals', 'j1.q,j2.qd', '--mode', 'relaxed');
    expect(Object.keys(run)).toEqual(['model', 'time', 'signals', 'scene', 'poses', 'report', 'integration']);
    // a 0.1 s run is 100 RK4 steps of 1e-3, four evaluations of the derivatives each
    expect(run.integration).toEqual({ integrator: 'rk4', step: 1e-3, steps: 100, rejected: 0, evaluations: 400 });
    expect(Object.keys(run.signals)).toEqual(['j1.q', 'j2.qd']);
    expect(run.time).toHaveLength(6);
    expect(run.scene!.frames).toHaveLength(4);
    expect(run.poses!.data).toHaveLength(6 * 4 * POSE_STRIDE);
    expect(run.report).toMatchObject({ model: 'doublependulum', mode: 'relaxed' });
  });

  it('--gravity reaches the scene (the viewer puts the ground normal to it)', async () => {
    const run = await simulateTo('doublependulum', '--gravity', '0,0,-9.81');
    expect(run.scene!.gravity).toEqual([0, 0, -9.81]);
  });

  it("--contact records every pair's contact signals and the energy beside the states (the viewer's arrows and energy); --signals keeps to its names; no --contact, the states only", async () => {
    const rest = ['--set', 'v0=0', '--step', '1e-5', '--integrator', 'rk4'];
    const pair = 'contact.world.ground__ball.collision1';
    const on = await simulateTo('sphere-on-plane', '--contact', ...rest);
    const off = await simulateTo('sphere-on-plane', ...rest);
    const contact = ['fn', 'ft[1]', 'ft[2]', 'p[1]', 'p[2]', 'p[3]', 'f[1]', 'f[2]', 'f[3]'].map((s) => `${pair}.${s}`);
    const energy = ['energy.kinetic', 'energy.potential', 'energy.total'];
    // and the energy, which the viewer cannot replay without the contact
    expect(Object.keys(on.signals)).toEqual([...Object.keys(off.signals), ...energy, ...contact]);
    const [kinetic, potential, total] = energy.map((n) => on.signals[n]);
    const work = on.signals['energy.contact_work'];
    total.forEach((e, k) => {
      expect(Math.abs(kinetic[k] + potential[k] - e)).toBeLessThan(1e-12);
      // at rest at its static depth: the contact does no work, the total stays at its start
      expect(Math.abs(e - work[k] - total[0])).toBeLessThan(1e-9);
    });
    expect(Object.keys(off.signals).some((n) => n.startsWith('contact.'))).toBe(false);
    // resting on the plane (m = 1 kg, g = 9.81): the ground pushes the ball up (gravity along -y) by its weight
    expect(on.signals[`${pair}.f[2]`].at(-1)).toBeCloseTo(9.81, 9);
    const chosen = await simulateTo('sphere-on-plane', '--contact', ...rest, '--signals', 'j.r[2]');
    expect(Object.keys(chosen.signals)).toEqual(['j.r[2]']);
  });

  it('a model without frames keeps the plain { model, time, signals }', async () => {
    const run = await simulateTo('drivetrain');
    expect(Object.keys(run)).toEqual(['model', 'time', 'signals']);
  });
});
