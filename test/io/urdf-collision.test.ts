// A URDF robot with contact (urdfMechanism's contact option, loadUrdf's,
// kron simulate robot.urdf --contact): its <collision> elements become its
// bodies' collision geometry, and a ground plane is added
// (src/io/urdf-collision.ts). Oracles: the geometries' world poses at a
// posed configuration against this file's own forward kinematics of the
// URDF's numbers (joint origin, axis rotation, collision origin; the
// inertial frames play no part); a box and a sphere dropped on the ground
// rest with the ground's normal forces summing to their weight and the
// sphere at the linear law's m g / k; without the option the compiled model
// is the one of the same URDF with its <collision> elements deleted (what
// the importer read before it read them).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { ContactScene } from '../../src/contact/scene.ts';
import { ModelError } from '../../src/errors.ts';
import { Body } from '../../src/library/multibody/body.ts';
import { parseUrdf, urdfMechanism } from '../../src/io/urdf.ts';
import { loadUrdf } from '../../src/node/urdf-file.ts';
import { SOLIMP, SOLREF, restDepth } from '../../src/io/mjcf-solref.ts';

const dir = new URL('fixtures/urdf/', import.meta.url).pathname;
const read = (f: string) => readFileSync(dir + f, 'utf8');
const G = 9.80665;

type V = [number, number, number];
type M = [V, V, V];
const mul = (A: M, B: M): M => A.map((row) => [0, 1, 2].map((j) => row[0] * B[0][j] + row[1] * B[1][j] + row[2] * B[2][j])) as M;
const app = (A: M, v: V): V => A.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]) as V;
const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const rx = (a: number): M => [
  [1, 0, 0],
  [0, Math.cos(a), -Math.sin(a)],
  [0, Math.sin(a), Math.cos(a)],
];
const ry = (a: number): M => [
  [Math.cos(a), 0, Math.sin(a)],
  [0, 1, 0],
  [-Math.sin(a), 0, Math.cos(a)],
];
const rz = (a: number): M => [
  [Math.cos(a), -Math.sin(a), 0],
  [Math.sin(a), Math.cos(a), 0],
  [0, 0, 1],
];
/** URDF's rpy: fixed axes x, y, z, R = Rz(y) Ry(p) Rx(r) (the URDF specification) */
const rpy = (r: number, p: number, y: number) => mul(rz(y), mul(ry(p), rx(r)));

/** a body's frame_a (R body to world, r) and a geometry's world pose from the scene, at time 0 of a run from `start` */
function scenePoses(file: string, start: Record<string, number>) {
  const { mechanism } = urdfMechanism(parseUrdf(read(file), file), { contact: true });
  const scene = ContactScene.of(mechanism);
  const c = compile(mechanism);
  const signals = scene.bodies.flatMap((b) => [
    ...[1, 2, 3].flatMap((i) => [1, 2, 3].map((j) => `${b}.frame_a.R[${i}][${j}]`)),
    ...[1, 2, 3].map((i) => `${b}.frame_a.r[${i}]`),
  ]);
  const run = simulate(c, { stop: 0, start, signals });
  const poses = new Map<string, { R: M; p: V }>();
  for (const g of scene.geometries) {
    if (g.body < 0) continue;
    const b = scene.bodies[g.body];
    const Rb = [1, 2, 3].map((i) => [1, 2, 3].map((j) => run.final(`${b}.frame_a.R[${i}][${j}]`))) as M;
    const rb = [1, 2, 3].map((i) => run.final(`${b}.frame_a.r[${i}]`)) as V;
    const Rl = [0, 1, 2].map((i) => g.R.slice(3 * i, 3 * i + 3)) as M;
    poses.set(g.name, { R: mul(Rb, Rl), p: add(rb, app(Rb, g.offset as V)) });
  }
  return { mechanism, scene, poses };
}

function expectPose(got: { R: M; p: V } | undefined, R: M, p: V) {
  expect(got).toBeDefined();
  got!.R.flat().forEach((v, k) => expect(v).toBeCloseTo(R.flat()[k], 12));
  got!.p.forEach((v, k) => expect(v).toBeCloseTo(p[k], 12));
}

describe('URDF <collision> elements as collision geometry', () => {
  it('maps box, sphere, cylinder and capsule at their origins in the link frame: world poses at a posed arm', () => {
    const q = 0.7;
    const { mechanism, poses } = scenePoses('shapes.urdf', { 'shoulder.q': q });
    const bodies = mechanism.children.filter((c): c is Body => c instanceof Body);
    const byName = new Map(bodies.map((b) => [b.localName, b]));
    expect(byName.get('base')!.collision.map((c) => [c.name, c.shape])).toEqual([
      ['plate', { type: 'box', size: [0.3, 0.2, 0.05] }],
      ['collision2', { type: 'sphere', radius: 0.07 }],
    ]);
    expect(byName.get('arm')!.collision.map((c) => [c.name, c.shape])).toEqual([
      ['rod', { type: 'cylinder', radius: 0.03, length: 0.5 }],
      ['tip', { type: 'capsule', radius: 0.02, length: 0.1 }],
    ]);
    // the base is fixed at the world's origin: its geometries at their origins
    expectPose(poses.get('base.plate'), rpy(0.4, -0.3, 0.7), [0.1, 0.2, -0.05]);
    expectPose(poses.get('base.collision2'), rpy(0, 0, 0), [-0.2, 0, 0.1]);
    // the arm: the joint's origin, then the turn q about its axis y, then the collision's origin
    const Ra = mul(rpy(0, 0.5, 0.2), ry(q)),
      ra: V = [0.3, 0.1, 0.2];
    expectPose(poses.get('arm.rod'), mul(Ra, rpy(0, Math.PI / 2, 0)), add(ra, app(Ra, [0, 0, 0.25])));
    expectPose(poses.get('arm.tip'), mul(Ra, rpy(-0.2, 0.1, 0.5)), add(ra, app(Ra, [0.02, 0.01, 0.5])));
    // a link with a collision alone, fixed to the arm: a massless body carrying it
    expect(byName.get('guard')!.mass).toBe(0);
    const Rg = mul(Ra, rpy(0.3, 0, 0)),
      rg = add(ra, app(Ra, [0, 0, 0.6]));
    expectPose(poses.get('guard.collision1'), Rg, add(rg, app(Rg, [0, 0.05, 0])));
  });

  it('adds a ground against gravity (or where told); the robot touches the ground, not itself', () => {
    const robot = parseUrdf(read('shapes.urdf'), 'shapes.urdf');
    const { scene } = scenePoses('shapes.urdf', {});
    const ground = scene.geometries.find((g) => g.body < 0)!;
    expect(ground.name).toBe('world.ground');
    // the plane's z axis (column 3 of R) is its normal: against URDF's gravity -z
    expect([ground.R[2], ground.R[5], ground.R[8]].map((v) => v + 0)).toEqual([0, 0, 1]);
    // every pair is the ground and one robot geometry, no robot pair; the base, fixed to the world, is one rigid body with the ground
    expect(scene.pairs.map(([i, j]) => `${scene.geometries[i].name}__${scene.geometries[j].name}`)).toEqual([
      'world.ground__arm.rod',
      'world.ground__arm.tip',
      'world.ground__guard.collision1',
    ]);
    for (const [i, j] of scene.pairs) expect([scene.geometries[i], scene.geometries[j]].filter((g) => g.body < 0)).toHaveLength(1);
    const placed = ContactScene.of(urdfMechanism(robot, { contact: true, ground: { point: [0, 0, -1], normal: [0, 1, 1] } }).mechanism);
    const g = placed.geometries.find((x) => x.body < 0)!;
    expect(g.offset).toEqual([0, 0, -1]);
    [g.R[2], g.R[5], g.R[8]].forEach((v, k) => expect(v).toBeCloseTo([0, Math.SQRT1_2, Math.SQRT1_2][k], 15));
  });

  it('a <mesh> collision not read is a warning naming the link and file; an unreadable collision element is an error only with contact', () => {
    const { warnings } = urdfMechanism(parseUrdf(read('shapes.urdf'), 'shapes.urdf'), { contact: true });
    expect(warnings).toEqual([
      'link base: <collision> mesh "package://shapes/meshes/base.stl" is not read (mesh files are read when the URDF is loaded from a file): not collided',
    ]);
    const bad = read('box.urdf').replace('<box size="0.4 0.2 0.1"/></geometry>\n    </collision>', '<box size="0.4 -0.2 0.1"/></geometry>\n    </collision>');
    const robot = parseUrdf(bad, 'bad.urdf');
    // without contact the element is not read, as before
    expect(urdfMechanism(robot).warnings).toEqual([]);
    expect(() => urdfMechanism(robot, { contact: true })).toThrow(ModelError);
    expect(() => urdfMechanism(robot, { contact: true })).toThrow(/bad\.urdf: <link name="box"> <collision> 1 <geometry> <box>: size must be > 0/);
  });

  it('a floating box dropped on the ground rests on its four corners, their normal forces summing to its weight', () => {
    const { mechanism, warnings } = loadUrdf(dir + 'box.urdf', { floating: true, contact: true });
    expect(warnings).toEqual([]);
    const c = compile(mechanism);
    const pair = 'contact.world.ground__box.hull';
    const run = simulate(c, {
      stop: 2,
      interval: 1,
      integrator: 'radau',
      start: { 'box_free.r[3]': 0.02 },
      signals: [`${pair}.fn`, `${pair}.p[1]`, `${pair}.p[2]`, 'box_free.r[3]', 'box_free.v[3]'],
      contact: ContactScene.of(mechanism),
    });
    const weight = 2 * G;
    expect(Math.abs(run.final(`${pair}.fn`) - weight) / weight).toBeLessThan(1e-6);
    // the centre of pressure under the centre of mass: the link frame's x offset 0.1 of the inertial and collision origins
    expect(run.final(`${pair}.p[1]`)).toBeCloseTo(0.1, 6);
    expect(run.final(`${pair}.p[2]`)).toBeCloseTo(0, 6);
    // MuJoCo's defaults (solref 0.02 1, solimp 0.9 0.95 0.001 0.5 2) as the MJCF importer maps them: the box rests at
    // MuJoCo's depth for a box on its 4 corners (restDepth, checked against MuJoCo 3.14 live in mjcf-contact-mujoco.test.ts)
    const depth = restDepth(SOLREF, SOLIMP, 4);
    expect(Math.abs(-run.final('box_free.r[3]') - depth) / depth).toBeLessThan(1e-3);
  });

  it('a sphere robot with a linear law (contactMaterial) rests at m g / k', () => {
    const k = 2e5;
    const urdf = `<robot name="ball"><link name="ball">
      <inertial><mass value="3"/><inertia ixx="0.012" iyy="0.012" izz="0.012" ixy="0" ixz="0" iyz="0"/></inertial>
      <collision><origin xyz="0 0 0"/><geometry><sphere radius="0.1"/></geometry></collision>
    </link></robot>`;
    const { mechanism } = urdfMechanism(parseUrdf(urdf, 'ball.urdf'), {
      floating: true,
      contact: true,
      contactMaterial: { stiffness: k, damping: 2 * Math.sqrt(k * 3), friction: 0.5 },
    });
    const run = simulate(compile(mechanism), {
      stop: 1,
      interval: 1,
      integrator: 'radau',
      start: { 'ball_free.r[3]': 0.1 },
      signals: ['ball_free.r[3]', 'contact.world.ground__ball.collision1.fn'],
      contact: ContactScene.of(mechanism),
    });
    expect(Math.abs(run.final('contact.world.ground__ball.collision1.fn') - 3 * G) / (3 * G)).toBeLessThan(1e-6);
    expect(Math.abs(run.final('ball_free.r[3]') - (0.1 - (3 * G) / k))).toBeLessThan(1e-9);
  });

  it('without contact the compiled model is that of the URDF with its <collision> elements deleted', () => {
    const text = read('shapes.urdf');
    const stripped = text.replace(/<collision[\s\S]*?<\/collision>/g, '');
    expect(stripped).not.toContain('<collision');
    const a = compile(urdfMechanism(parseUrdf(text, 'shapes.urdf')).mechanism);
    const b = compile(urdfMechanism(parseUrdf(stripped, 'shapes.urdf')).mechanism);
    expect(a.generated.body).toBe(b.generated.body);
    expect(a.generated.layout).toEqual(b.generated.layout);
    const { compileMs: _a, ...ra } = a.report;
    const { compileMs: _b, ...rb } = b.report;
    expect(ra).toEqual(rb);
    expect(a.signalNames().some((n) => n.includes('contact_f'))).toBe(false);
    // asked for on a robot without collision elements, contact is said to do nothing
    const puma = readFileSync(new URL('../../mechanisms/puma560.urdf', import.meta.url), 'utf8');
    expect(urdfMechanism(parseUrdf(puma, 'puma560.urdf'), { contact: true }).warnings).toEqual([
      'contact: no link has a <collision> box, cylinder, sphere, capsule or readable mesh, so nothing touches the ground',
    ]);
  });

  it('kron simulate robot.urdf --floating --contact writes contact.* signals', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'kron-urdfc-')), 'run.csv');
    let stderr = '';
    const io = { stdout: { write: () => {} }, stderr: { write: (t: string) => (stderr += t) } };
    const code = await main(
      [
        'simulate',
        dir + 'box.urdf',
        '--floating',
        '--contact',
        '--integrator',
        'radau',
        '--stop',
        '1',
        '--interval',
        '1',
        '--signals',
        'contact.*',
        '--out',
        out,
        '--no-cache',
      ],
      io,
    );
    expect(stderr).toBe(`wrote 2 samples of 9 signals to ${out}\n`);
    expect(code).toBe(0);
    const [head, , last] = readFileSync(out, 'utf8').trim().split('\n');
    const cols = head.split(',');
    expect(cols).toContain('contact.world.ground__box.hull.fn');
    const fn = Number(last.split(',')[cols.indexOf('contact.world.ground__box.hull.fn')]);
    expect(Math.abs(fn - 2 * G) / (2 * G)).toBeLessThan(1e-6);
    writeFileSync(out, '');
  });
});
