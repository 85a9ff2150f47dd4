// An MJCF robot with contact (mjcfMechanism's contact option, kron simulate
// --contact): the geoms that may touch the world's planes become its
// bodies' collision geometry (src/io/mjcf-collision.ts), MuJoCo's solref a
// time constant and damping ratio, mixed with the plane's as MuJoCo mixes a
// pair's, and with solimp made the linear spring that rests a body at
// MuJoCo's depth (src/io/mjcf-solref.ts; against MuJoCo itself in
// mjcf-contact-mujoco.test.ts). Oracles: a sphere at rest on a plane sinks
// m g / k with k = m / (tc' zeta)^2, tc' the equivalent time constant (the
// documented mapping, by hand); Go2 dropped on the floor at its home key
// comes to rest with the floor's normal forces summing to its weight; which
// geoms collide follows MuJoCo's contype/conaffinity rule, counted by hand.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile, simulate } from '../../src/index.ts';
import { ContactScene } from '../../src/contact/scene.ts';
import { Body } from '../../src/library/multibody/body.ts';
import { mjcfMechanism, parseMjcf } from '../../src/io/mjcf.ts';

const dir = new URL('fixtures/mjcf/', import.meta.url).pathname;
const read = (f: string) => readFileSync(dir + f, 'utf8');

const SPHERE = `<mujoco model="ball">
  <worldbody>
    <geom name="floor" type="plane" size="0 0 0.05" pos="0 0 -0.5"/>
    <geom name="ornament" type="sphere" size="0.05" pos="3 0 0" contype="0" conaffinity="0"/>
    <body name="ball" pos="0 0 0">
      <freejoint/>
      <geom type="sphere" size="0.1" mass="2" solref="0.02 1" friction="0.5"/>
      <geom name="visual" type="box" size="0.01 0.01 0.01" pos="0 0 0.2" contype="0" conaffinity="0" mass="0"/>
    </body>
  </worldbody>
</mujoco>`;

describe('MJCF robots with contact', () => {
  it("a sphere on a plane rests m g / k deep, k = m / (tc' zeta)^2 from its solref and solimp; only geoms that may touch the plane collide", () => {
    const { mechanism, warnings } = mjcfMechanism(parseMjcf(SPHERE, 'ball.xml'), { contact: true });
    expect(warnings).toEqual([]);
    const ball = mechanism.children.find((c): c is Body => c instanceof Body && c.localName === 'ball')!;
    // the sphere collides; the box with contype = conaffinity = 0 does not
    expect(ball.collision.map((c) => c.shape.type)).toEqual(['sphere']);
    // MuJoCo's pair: the larger friction (the plane's default 1), the mean solref and solimp (both defaults here);
    // the equivalent time constant tc' = dmax tc sqrt(1 - d) / d at the rest depth r where d is MuJoCo's impedance
    const m = ball.collision[0].material!;
    expect(m.friction).toBe(1);
    expect(m.dampingRatio).toBe(1);
    // by hand: solimp 0.9 0.95 0.001 0.5 2 at r: d = 0.9 + 0.05 * 2 (r / 0.001)^2, and r d^2 / (1 - d) = g dmax^2 tc^2
    const depth = m.timeConstant! ** 2 * 9.81; // m g / k with k = m / tc'^2
    const d = 0.9 + 0.05 * 2 * (depth / 0.001) ** 2;
    expect(depth).toBeLessThan(0.0005); // below solimp's midpoint, where d's formula above holds
    expect(Math.abs((depth * d * d) / (1 - d) / (9.81 * 0.95 ** 2 * 0.02 ** 2) - 1)).toBeLessThan(1e-9);
    const c = compile(mechanism);
    const r = simulate(c, { stop: 3, interval: 0.5, integrator: 'radau', signals: ['ball_free.r[3]', 'ball_free.v[3]'], contact: ContactScene.of(mechanism) });
    const k = 2 / (m.timeConstant! * 1) ** 2;
    // MuJoCo's default gravity 9.81, the plane at z = -0.5, radius 0.1
    expect(r.final('ball_free.r[3]')).toBeCloseTo(-0.5 + 0.1 - (2 * 9.81) / k, 6);
    expect(Math.abs(r.final('ball_free.v[3]'))).toBeLessThan(1e-6);
  });

  it('without the option the geoms are drawn only, with the warning that says how to collide them', () => {
    const { mechanism, warnings } = mjcfMechanism(parseMjcf(SPHERE, 'ball.xml'));
    expect(mechanism.children.filter((c): c is Body => c instanceof Body).every((b) => b.collision.length === 0)).toBe(true);
    expect(warnings).toContain('geoms are drawn, not collided: contacts are not modelled (kron simulate --contact collides them)');
  });

  it("Go2 dropped on the floor at its home key comes to rest: the floor's normal forces sum to its weight", () => {
    const robot = parseMjcf(read('go2-scene.xml'), 'go2-scene.xml', { readFile: read });
    const { mechanism } = mjcfMechanism(robot, { contact: true, keyframe: 'home' });
    const bodies = mechanism.children.filter((c): c is Body => c instanceof Body);
    // go2.xml's collision class: the base's box and cylinders, each leg's hip cylinder, thigh box, calf cylinders, foot sphere
    const colliding = bodies.filter((b) => b.collision.length > 0).map((b) => b.localName);
    expect(colliding).toHaveLength(13);
    // the four feet and the base's front sphere
    expect(bodies.flatMap((b) => b.collision).filter((c) => c.shape.type === 'sphere')).toHaveLength(5);
    const c = compile(mechanism);
    const forces = c.signalNames().filter((n) => n.endsWith('.contact_f[3]'));
    const r = simulate(c, { stop: 2, interval: 0.5, signals: forces, contact: ContactScene.of(mechanism) });
    const weight = bodies.reduce((m, b) => m + b.mass, 0) * 9.81;
    const total = forces.reduce((s, n) => s + r.final(n), 0);
    expect(Math.abs(total - weight) / weight).toBeLessThan(1e-3);
  }, 120_000);
});
