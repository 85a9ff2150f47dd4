// Derivatives of models with free and ball joints (issue 33), on the tangent
// space as Pinocchio's: q has n_q entries (a quaternion's four numbers per
// free or ball joint), qd, qdd and tau n_v, and d/dq is n_v x n_v along
// q (+) delta e_j (tangent-space.ts: Q (x) exp(delta e_axis / 2),
// normalised). Oracle: fourth-order central differences along that curve of
// the compiled forward code, torn and relaxed, and of the inverse code;
// the O(n) tangents against the Jacobians times a direction.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { Mechanism } from '../../src/library/multibody/index.ts';
import { readFileSync } from 'node:fs';
import { SimulationError } from '../../src/errors.ts';
import { mjcfMechanism, parseMjcf } from '../../src/io/mjcf.ts';
import { urdfMechanism } from '../../src/io/urdf.ts';
import { parseUrdf } from '../../src/io/urdf-parse.ts';
import { loadUrdf } from '../../src/node/urdf-file.ts';
import { iiwaXml } from './trees.ts';
import humanoid from '../../mechanisms/humanoid.ts';
import { buildMechanism } from '../../bench/fuzz/describe.ts';
import { generate } from '../../bench/fuzz/generate.ts';
import { prng } from './cases.ts';
import { forwardDynamics, jacobian, relative } from './differences.ts';
import { places, randomPositions, tangentJacobian } from './tangent-space.ts';

const TOL = 1e-8;

/** three quaternion ball joints in a chain from the world, links hanging off-axis (gravity -y) */
function ballChain(): Mechanism {
  const m = new Mechanism('ball chain');
  let from = m.world.frame_b;
  for (let i = 1; i <= 3; i++) {
    const j = m.ball(`ball${i}`, { d: 0.05 * i });
    m.connect(from, j.frame_a);
    const link = m.body(`link${i}`, { m: 1 + 0.3 * i, rcm: [0.1, -0.4, 0.05 * i], I: [0.05, 0.02 + 0.01 * i, 0.04] });
    m.connect(j.frame_b, link.frame_a);
    const bar = m.bar(`bar${i}`, { r: [0.05, -0.8, 0.1] });
    m.connect(j.frame_b, bar.frame_a);
    from = bar.frame_b;
  }
  return m;
}

const pumaUrdf = new URL('../../mechanisms/puma560.urdf', import.meta.url).pathname;
/** the PUMA 560's URDF on a free joint, its (massless) base link given 20 kg: else turning the base about z moves the masses exactly as j1 does */
const floatingPuma = () =>
  urdfMechanism(
    parseUrdf(
      readFileSync(pumaUrdf, 'utf8').replace(
        '<link name="base">',
        '<link name="base"><inertial><mass value="20"/><inertia ixx="1" iyy="1" izz="0.5" ixy="0" ixz="0" iyz="0"/></inertial>',
      ),
      'puma560.urdf',
    ),
    { floating: true },
  ).mechanism;
/** the KUKA iiwa 14 of MuJoCo Menagerie with a freejoint on its 5 kg base (limits and friction off, as trees.ts) */
const floatingIiwa = () =>
  mjcfMechanism(
    parseMjcf(iiwaXml().replace('<body name="base" childclass="iiwa">', '<body name="base" childclass="iiwa"><freejoint name="float"/>'), 'iiwa14.xml'),
    {
      limitsAndFriction: false,
    },
  ).mechanism;

/** the models, and the difference step (a random tree's pose may be near a singular one, where the fifth derivatives are large) */
const models: { name: string; build: () => Mechanism; h?: number }[] = [
  { name: 'a chain of three ball joints', build: ballChain },
  { name: 'free-floating PUMA 560 (URDF --floating, 6 + 6)', build: floatingPuma },
  { name: 'free-floating KUKA iiwa 14 (MJCF freejoint, 6 + 7)', build: floatingIiwa },
  { name: 'floating humanoid (35 coordinates: 6 + 29, branched)', build: () => humanoid({ floating: 1 }) },
  ...[2, 5, 15, 23, 24].map((seed) => {
    const spec = generate(seed, { family: 'floating' });
    return { name: `fuzz floating tree seed ${seed} (${spec.links.map((l) => l.joint).join(', ')})`, build: () => buildMechanism(spec), h: 3e-4 };
  }),
];

const vector = (n: number, rnd: () => number, s: number) => Float64Array.from({ length: n }, () => s * (2 * rnd() - 1));
const mulMV = (A: Float64Array, v: ArrayLike<number>) => Float64Array.from(v, (_, i) => Array.from(v).reduce((s, x, j) => s + A[i * v.length + j] * x, 0));

describe('free and ball joints: derivatives on the tangent space against fourth-order differences along q (+) delta e_j (1e-8)', () => {
  for (const t of models) {
    it(
      t.name,
      () => {
        const inv = compile(t.build(), { problem: 'inverse' });
        const n = inv.coordinates.length,
          nq = inv.positions.length,
          where = places(inv.coordinates),
          rnd = prng(7 + n);
        expect(nq - n, 'one more position per quaternion').toBe(inv.coordinates.filter((c) => c.quaternion?.axis === 0).length);
        expect(nq).toBeGreaterThan(n);
        const q = randomPositions(where, nq, rnd, 1),
          qd = vector(n, rnd, 1),
          tau = vector(n, rnd, 5);
        const d = inv.forwardDerivatives(q, qd, tau);
        for (const mode of ['torn', 'relaxed'] as const) {
          const fd = forwardDynamics(compile(t.build(), { mode }), inv.coordinates, inv.positions);
          expect(relative(d.qdd, fd(q, qd, tau)), `qdd, ${mode}`).toBeLessThanOrEqual(1e-10);
          const dq = tangentJacobian((x) => fd(x, qd, tau), where, q, t.h);
          expect(relative(d.dqdd_dq, dq), `dqdd/dq, ${mode}`).toBeLessThanOrEqual(TOL);
          expect(
            relative(
              d.dqdd_dqd,
              jacobian((x) => fd(q, x, tau), qd),
            ),
            `dqdd/dqd, ${mode}`,
          ).toBeLessThanOrEqual(TOL);
          expect(
            relative(
              d.dqdd_dtau,
              jacobian((x) => fd(q, qd, x), tau),
            ),
            `dqdd/dtau, ${mode}`,
          ).toBeLessThanOrEqual(TOL);
        }
        // inverse dynamics at the accelerations just found: tau again, and its Jacobians
        const id = (a: ArrayLike<number>, b: ArrayLike<number>, c: ArrayLike<number>) => Float64Array.from(inv.inverse(0, a, b, c));
        const b = inv.inverseDerivatives(q, qd, d.qdd);
        expect(relative(b.tau, tau), 'ID(FD(tau)) = tau').toBeLessThanOrEqual(1e-10);
        expect(
          relative(
            b.dtau_dq,
            tangentJacobian((x) => id(x, qd, d.qdd), where, q, t.h),
          ),
          'dtau/dq',
        ).toBeLessThanOrEqual(TOL);
        expect(
          relative(
            b.dtau_dqd,
            jacobian((x) => id(q, x, d.qdd), qd),
          ),
          'dtau/dqd',
        ).toBeLessThanOrEqual(TOL);
        expect(
          relative(
            b.dtau_dqdd,
            jacobian((x) => id(q, qd, x), d.qdd),
          ),
          'dtau/dqdd',
        ).toBeLessThanOrEqual(TOL);
        // one direction (in the tangent space: n_v entries) in O(n)
        const run = inv.inverseDynamics();
        const dq = vector(n, rnd, 1),
          dqd = vector(n, rnd, 1),
          dtau = vector(n, rnd, 1);
        const along = run.forwardTangent(q, qd, tau, dq, dqd, dtau);
        const expected = mulMV(d.dqdd_dq, dq).map((v, i) => v + mulMV(d.dqdd_dqd, dqd)[i] + mulMV(d.dqdd_dtau, dtau)[i]);
        expect(relative(along.dqdd, expected), 'forwardTangent').toBeLessThanOrEqual(1e-10);
        const back = run.inverseTangent(q, qd, d.qdd, dq, dqd, dtau);
        const expectedTau = mulMV(b.dtau_dq, dq).map((v, i) => v + mulMV(b.dtau_dqd, dqd)[i] + mulMV(b.dtau_dqdd, dtau)[i]);
        expect(relative(back.dtau, expectedTau), 'inverseTangent').toBeLessThanOrEqual(1e-10);
      },
      120_000,
    );
  }
});

describe('free and ball joints: errors', () => {
  it("the PUMA 560's URDF floating as it is: its massless base turns about z as j1 does, so M is singular: a SimulationError naming the rotation", () => {
    const inv = compile(loadUrdf(pumaUrdf, { floating: true }).mechanism, { problem: 'inverse' });
    const n = inv.coordinates.length,
      q = randomPositions(places(inv.coordinates), inv.positions.length, prng(3), 1),
      zero = new Float64Array(n);
    expect(() => inv.forwardDerivatives(q, zero, zero)).toThrow(SimulationError);
    expect(() => inv.forwardDerivatives(q, zero, zero)).toThrow(/not positive definite at this q \(pivot 5, coordinate base_free\.w\[3\]\)/);
  });

  it('q takes n_q positions (the quaternion whole), qd, qdd and tau n_v: a UsageError naming the positions', () => {
    const inv = compile(ballChain(), { problem: 'inverse' });
    expect(inv.positions).toEqual(['ball1', 'ball2', 'ball3'].flatMap((j) => [1, 2, 3, 4].map((k) => `${j}.Q[${k}]`)));
    expect(inv.coordinates.map((c) => c.qd)).toEqual(['ball1', 'ball2', 'ball3'].flatMap((j) => [1, 2, 3].map((k) => `${j}.w[${k}]`)));
    const nine = new Float64Array(9);
    expect(() => inv.inverse(0, nine, nine, nine)).toThrow(/takes 12 positions \(ball1\.Q\[1\], .*\) and 9 coordinates/);
    expect(() => inv.forwardDerivatives(nine, nine, nine)).toThrow(
      /has 12 positions .*a quaternion's four numbers for its joint's three rotations\), got q of 9/,
    );
  });
});
