// URDF robots that move in the world (issue 29): --floating puts the root
// link on a free joint <root link>_free, and the floating and planar joint
// types are modelled. Oracles: a robot falling freely under gravity, its
// joints unactuated, has its centre of mass accelerate at g exactly (the
// joints' forces are internal), computed from every body's frame signals
// and inertial data, not from Kron's dynamics; a planar joint keeps its
// child in the plane; the same robot from its URDF with --floating and built
// by hand with m.free() gives the same derivatives.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { parseUrdf, urdfMechanism } from '../../src/io/urdf.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { main } from '../../src/cli/main.ts';
import { prng } from '../multibody/random-tree.ts';

const link = (name: string, m: number, c: readonly number[], I: readonly number[]) =>
  `<link name="${name}"><inertial><origin xyz="${c.join(' ')}" rpy="0.1 -0.2 0.3"/><mass value="${m}"/><inertia ixx="${I[0]}" iyy="${I[1]}" izz="${I[2]}" ixy="${0.05 * I[2]}" ixz="0" iyz="${-0.05 * I[2]}"/></inertial></link>`;
const joint = (name: string, type: string, parent: string, child: string, xyz: string, axis = '0 0 1') =>
  `<joint name="${name}" type="${type}"><parent link="${parent}"/><child link="${child}"/><origin xyz="${xyz}" rpy="0.2 0 -0.1"/><axis xyz="${axis}"/></joint>`;
/** a four-legged torso: hip and knee revolutes on each leg */
const quadruped = `<robot name="quad">${link('torso', 5, [0, 0, 0.02], [0.05, 0.1, 0.12])}${[
  ['fl', 0.2, 0.1],
  ['fr', 0.2, -0.1],
  ['hl', -0.2, 0.1],
  ['hr', -0.2, -0.1],
]
  .map(
    ([n, x, y]) =>
      `${link(`${n}_thigh`, 0.5, [0, 0, -0.1], [0.004, 0.004, 0.001])}${link(`${n}_shank`, 0.3, [0, 0, -0.1], [0.003, 0.003, 0.0005])}${joint(`${n}_hip`, 'revolute', 'torso', `${n}_thigh`, `${x} ${y} 0`, '0 1 0')}${joint(`${n}_knee`, 'continuous', `${n}_thigh`, `${n}_shank`, '0 0 -0.2', '0 1 0')}`,
  )
  .join('')}</robot>`;

/** the centre of mass's acceleration from each body's frame signals and its (rotated) inertial data */
function comAcceleration(read: (name: string) => number, bodies: { name: string; m: number; rcm: number[] }[]): number[] {
  const acc = [0, 0, 0];
  let M = 0;
  for (const b of bodies) {
    const g = (s: string) => read(`${b.name}.frame_a.${s}`);
    const R = [1, 2, 3].map((i) => [1, 2, 3].map((j) => g(`R[${i}][${j}]`)));
    const c = [0, 1, 2].map((i) => R[i][0] * b.rcm[0] + R[i][1] * b.rcm[1] + R[i][2] * b.rcm[2]);
    const w = [1, 2, 3].map((i) => g(`w[${i}]`)),
      z = [1, 2, 3].map((i) => g(`z[${i}]`)),
      a = [1, 2, 3].map((i) => g(`a[${i}]`));
    const x = (p: number[], q: number[]) => [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]];
    const zc = x(z, c),
      wwc = x(w, x(w, c));
    for (let i = 0; i < 3; i++) acc[i] += b.m * (a[i] + zc[i] + wwc[i]);
    M += b.m;
  }
  return acc.map((v) => v / M);
}

describe('a URDF robot on a floating root', () => {
  const robot = parseUrdf(quadruped, 'quad.urdf');
  const bodies = ['torso', ...['fl', 'fr', 'hl', 'hr'].flatMap((n) => [`${n}_thigh`, `${n}_shank`])].map((name) => {
    const l = robot.links.find((k) => k.name === name)!;
    return { name, m: l.inertial!.mass, rcm: [...l.inertial!.origin.xyz] };
  });

  it('falls freely: its centre of mass accelerates at g at random states, in both forms; the free joint is torso_free', () => {
    const random = prng(29);
    const derivatives: Float64Array[][] = [[], []],
      states: Float64Array[] = [];
    for (const [m, mode] of (['torn', 'relaxed'] as const).entries()) {
      const { mechanism, warnings } = urdfMechanism(robot, { floating: true });
      expect(warnings).toEqual([]);
      const c = compile(mechanism, { mode });
      expect(c.stateNames.slice(0, 13)).toEqual([
        'torso_free.r[1]',
        'torso_free.r[2]',
        'torso_free.r[3]',
        'torso_free.v[1]',
        'torso_free.v[2]',
        'torso_free.v[3]',
        'torso_free.Q[1]',
        'torso_free.Q[2]',
        'torso_free.Q[3]',
        'torso_free.Q[4]',
        'torso_free.w[1]',
        'torso_free.w[2]',
        'torso_free.w[3]',
      ]);
      const s = c.createState();
      // the same states for both forms: drawn once, with the first
      if (m === 0) for (let trial = 0; trial < 10; trial++) states.push(s.x0().map((v) => v + 2 * (random() - 0.5)));
      for (const state of states) {
        const x = Float64Array.from(state);
        s.normalize(x);
        const dx = new Float64Array(x.length);
        s.derivatives(0, x, dx);
        derivatives[m].push(dx);
        const a = comAcceleration((n) => s.signal(n), bodies);
        expect(Math.abs(a[0])).toBeLessThan(1e-11);
        expect(Math.abs(a[1])).toBeLessThan(1e-11);
        expect(Math.abs(a[2] + 9.80665)).toBeLessThan(1e-11);
      }
    }
    // and the two forms agree state for state
    derivatives[0].forEach((t, k) => t.forEach((v, i) => expect(Math.abs(v - derivatives[1][k][i])).toBeLessThan(1e-10 * Math.max(1, Math.abs(v)))));
  });

  it('the same through the command line with --floating; --floating on a model module is a usage error', async () => {
    let out = '',
      err = '';
    const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } };
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const dir = mkdtempSync('/tmp/kron-floating-');
    writeFileSync(`${dir}/quad.urdf`, quadruped);
    expect(
      await main(
        ['simulate', `${dir}/quad.urdf`, '--floating', '--no-cache', '--stop', '0.5', '--interval', '0.5', '--signals', 'torso_free.r[3],torso_free.v[3]'],
        io,
      ),
    ).toBe(0);
    const last = out.trim().split('\n').at(-1)!.split(',').map(Number);
    // the torso's height falls at least as the centre of mass does, -g t^2 / 2, give or take the legs' swing
    expect(last[0]).toBe(0.5);
    expect(last[1]).toBeLessThan(-1);
    err = '';
    expect(await main(['simulate', 'mechanisms/pendulum.ts', '--floating', '--stop', '0'], io)).toBe(2);
    expect(err).toMatch(/^UsageError: --floating is for URDF robots, and mechanisms\/pendulum.ts is a model module/);
  });
});

describe('URDF floating and planar joint types', () => {
  it('a floating joint is a free joint; a planar joint keeps its child in the plane normal to its axis', () => {
    const urdf =
      `<robot name="t">${link('base', 1, [0, 0, 0], [0.1, 0.1, 0.1])}${link('puck', 0.5, [0.02, 0, 0], [0.012, 0.012, 0.02])}${link('ball', 0.2, [0, 0, 0], [0.001, 0.001, 0.001])}` +
      `${joint('slide', 'planar', 'base', 'puck', '0.3 0 0', '0 0 1')}${joint('loose', 'floating', 'base', 'ball', '0 0.5 0')}</robot>`;
    const { mechanism } = urdfMechanism(parseUrdf(urdf, 't.urdf'));
    const c = compile(mechanism);
    expect(c.stateNames).toEqual(expect.arrayContaining(['slide_x.q', 'slide_y.q', 'slide_yaw.q', 'loose.r[1]', 'loose.Q[4]', 'loose.w[3]']));
    // gravity -z along the planar joint's axis (after the origin's rotation, not quite): the puck stays in its plane
    const r = simulate(c, {
      stop: 1,
      step: 1e-3,
      interval: 0.1,
      start: { 'slide_x.qd': 0.3, 'slide_yaw.qd': 2 },
      signals: ['puck.frame_a.r[1]', 'puck.frame_a.r[2]', 'puck.frame_a.r[3]', 'loose.r[3]', 'loose.v[3]'],
    });
    const R = [
      [1, 0, 0],
      [0, Math.cos(0.2), -Math.sin(0.2)],
      [0, Math.sin(0.2), Math.cos(0.2)],
    ];
    const Rz = [
      [Math.cos(-0.1), -Math.sin(-0.1), 0],
      [Math.sin(-0.1), Math.cos(-0.1), 0],
      [0, 0, 1],
    ];
    // the plane's normal in the world: the origin's rotation Rz(yaw) Ry(0) Rx(roll) applied to the axis z
    const n = [0, 1, 2].map((i) => Rz[i][0] * R[0][2] + Rz[i][1] * R[1][2] + Rz[i][2] * R[2][2]);
    const p0 = [0, 1, 2].map((i) => r.get(`puck.frame_a.r[${i + 1}]` as never)[0]);
    for (let k = 0; k < r.length; k++) {
      const d = [0, 1, 2].map((i) => r.get(`puck.frame_a.r[${i + 1}]` as never)[k] - p0[i]);
      expect(Math.abs(d[0] * n[0] + d[1] * n[1] + d[2] * n[2])).toBeLessThan(1e-12);
    }
    // the loose ball falls freely: its velocity -g t in the world, here resolved in the floating joint's frame_a
    // (the origin's rotation: the world's z is cos(roll) cos(pitch) = cos 0.2 along frame_a's z)
    const last = r.length - 1;
    expect(r.get('loose.v[3]' as never)[last]).toBeCloseTo(-9.80665 * Math.cos(0.2), 9);
  });
});
