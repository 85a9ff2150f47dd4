// MJCF <equality> loops closed exactly, against MuJoCo's own model of the
// same file. The oracle is the exact (hard-constraint) solution built from
// MuJoCo's smooth dynamics and its constraints' Jacobians (mjcf-kkt.ts):
// at closed states (random state coordinates, the loop assembled by Kron,
// the same qpos, qvel handed to MuJoCo) Kron's accelerations of every
// coordinate, rest joints included, equal it to 1e-9 relative, both forms.
// Both sides leave out what the importer does not model here: armature 0,
// no limits, friction loss, contacts or actuation.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, type Mode } from '../../src/compile.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { ModelError, SimulationError } from '../../src/errors.ts';
import { mjcfMechanism, parseMjcf } from '../../src/io/mjcf.ts';
import { mujoco } from '../../src/bench/mujoco.ts';
import { rng } from '../../src/bench/timing.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { coordinateNames, freePeersAfterAll, jointsOf, smoothPeer } from './mjcf-peer.ts';
import { connectGaps as mujocoGaps, exactAccelerations } from './mjcf-kkt.ts';

freePeersAfterAll();
const fixture = (f: string) => readFileSync(new URL(`fixtures/mjcf/${f}`, import.meta.url), 'utf8');
/** what MuJoCo reads: without the texture file, which is not here (meshes: smoothPeer) */
const forMujoco = (xml: string) => xml.replace(/<texture [^>]*\/>/g, '').replace(/ texture="[^"]*"/g, '');

type Joint = { name: string; type: string };

/** MuJoCo's qpos, qvel and qacc read from Kron after derivatives(): states, and the rest joints' signals */
function mujocoVectors(c: CompiledModel, state: ReturnType<CompiledModel['createState']>, joints: readonly Joint[], x: Float64Array, dx: Float64Array) {
  const names = coordinateNames(joints);
  const value = (n: string) => {
    const i = c.stateNames.indexOf(n);
    return i >= 0 ? x[i] : state.signal(n);
  };
  const qacc: number[] = [];
  for (const j of joints) {
    if (j.type === 'hinge' || j.type === 'slide') qacc.push(state.signal(`${j.name}.qdd`));
    else {
      const v = coordinateNames([j]).v;
      qacc.push(...v.map((n) => dx[c.stateNames.indexOf(n)]));
    }
  }
  return { qpos: names.q.map(value), qvel: names.v.map(value), qacc };
}

/** a random closed state: state hinges and free joints moved from the start, the loops assembled by Kron */
function perturbed(c: CompiledModel, rand: () => number, keepBalls: boolean): Float64Array {
  const x = c.x0();
  c.stateNames.forEach((n, i) => {
    const r = 2 * rand() - 1;
    if (n.endsWith('.q')) x[i] += 0.1 * r;
    else if (n.endsWith('.qd') || /\.(v|w)\[\d\]$/.test(n)) x[i] = /\.w\[[23]\]$/.test(n) && keepBalls && !n.includes('free') ? 0.05 * r : r;
    else if (/_free\.r\[\d\]$/.test(n)) x[i] += r;
    else if (/_free\.Q\[\d\]$/.test(n)) x[i] += 0.3 * r;
  });
  if (keepBalls) {
    // a ball of a loop turns about its rod (the anchor's axis, x) only: other turns would move the rod's end out of the loop's reach
    for (const ball of new Set(c.stateNames.filter((n) => /\.Q\[1\]$/.test(n) && !n.includes('_free')).map((n) => n.slice(0, -5)))) {
      const a = 0.4 * (2 * rand() - 1);
      [Math.cos(a / 2), Math.sin(a / 2), 0, 0].forEach((v, k) => (x[c.stateNames.indexOf(`${ball}.Q[${k + 1}]`)] = v));
    }
  }
  return x;
}

interface Case {
  file: string;
  xml: string;
  what: string;
  keepBalls?: boolean;
}

/**
 * The file's model read without limits and friction and compiled in one form, once per file and form: the
 * KKT test, the cut's test and the 5 s run ask for Cassie in the same form (~1.5 s of CPU a compile)
 */
const compiledOnce = new Map<string, { robot: ReturnType<typeof parseMjcf>; c: CompiledModel }>();
function compiled(xml: string, file: string, mode: Mode) {
  const key = `${mode} ${file} ${xml}`;
  let entry = compiledOnce.get(key);
  if (!entry) {
    const robot = parseMjcf(xml, file);
    entry = { robot, c: compile(mjcfMechanism(robot, { limitsAndFriction: false }).mechanism, { mode }) };
    compiledOnce.set(key, entry);
  }
  return entry;
}
afterAll(() => compiledOnce.clear());

async function againstKkt({ xml, file, keepBalls }: Case, mode: Mode): Promise<{ worst: number; rows: number }> {
  const { robot, c } = compiled(xml, file, mode);
  const peer = await smoothPeer(forMujoco(xml));
  const mj = await mujoco();
  const joints = jointsOf(robot);
  const state = c.createState();
  const rand = rng(11);
  let worst = 0,
    rows = 0;
  for (let k = 0; k < 25; k++) {
    const x = perturbed(c, rand, keepBalls ?? false);
    state.normalize(x);
    const dx = new Float64Array(x.length);
    state.derivatives(0, x, dx);
    const kron = mujocoVectors(c, state, joints, x, dx);
    const exact = exactAccelerations(mj, peer.model, peer.data, kron.qpos, kron.qvel);
    // the state is closed on MuJoCo's side too: every connect's anchors meet
    expect(Math.max(...mujocoGaps(peer.model, peer.data), 0)).toBeLessThan(1e-10);
    rows = exact.rows;
    const scale = Math.max(...exact.qacc.map(Math.abs));
    worst = Math.max(worst, ...kron.qacc.map((a, i) => Math.abs(a - exact.qacc[i]) / scale));
  }
  return { worst, rows };
}

const FOURBAR = `<mujoco model="fourbar">
  <compiler angle="radian"/>
  <worldbody>
    <body name="crank">
      <joint name="j1" axis="0 1 0" damping="0.01"/>
      <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.02"/>
      <body name="coupler" pos="0.2 0 0">
        <joint name="j2" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.5 0 0.3" size="0.02"/>
      </body>
    </body>
    <body name="rocker" pos="0.6 0 0">
      <joint name="j4" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.1 0 0.3" size="0.02"/>
    </body>
  </worldbody>
  <equality>
    <connect name="pin" body1="coupler" body2="rocker" anchor="0.5 0 0.3"/>
  </equality>
</mujoco>`;

/** a planar loop closed to the world: a connect without body2 (its plane is fixed in the world) */
const GROUNDED = `<mujoco model="grounded">
  <worldbody>
    <body name="crank">
      <joint name="j1" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.02"/>
      <body name="coupler" pos="0.2 0 0">
        <joint name="j2" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.5 0 0.3" size="0.02"/>
        <body name="rocker" pos="0.5 0 0.3">
          <joint name="j3" axis="0 1 0" stiffness="3"/>
          <geom type="capsule" fromto="0 0 0 0.1 0 -0.3" size="0.02"/>
        </body>
      </body>
    </body>
  </worldbody>
  <equality>
    <connect body1="rocker" anchor="0.1 0 -0.3"/>
  </equality>
</mujoco>`;

/** a spatial loop: a crank about z, a coupler on two hinges (x, y), a rocker about x, closed by a connect */
const SPATIAL = `<mujoco model="spatial">
  <compiler angle="radian"/>
  <worldbody>
    <body name="crank" pos="0 0 0.1">
      <joint name="c" axis="0 0 1"/>
      <geom type="capsule" fromto="0 0 0 0.15 0 0" size="0.02"/>
      <body name="coupler" pos="0.15 0 0">
        <joint name="u1" axis="1 0 0"/>
        <joint name="u2" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.3 0.4 -0.1" size="0.02"/>
      </body>
    </body>
    <body name="rocker" pos="0.45 0.4 -0.3">
      <joint name="r" axis="1 0 0" stiffness="2" springref="0.1"/>
      <geom type="capsule" fromto="0 0 0 0 0 0.3" size="0.02"/>
    </body>
  </worldbody>
  <equality>
    <connect body1="coupler" body2="rocker" anchor="0.3 0.4 -0.1"/>
  </equality>
</mujoco>`;

/** a spatial loop closed by a weld: seven hinges about skew axes, the last body welded to the world where it starts (1 degree of freedom) */
const SPATIAL_WELD = (() => {
  const axes = ['0 0 1', '1 0 0', '0 1 0', '1 1 0', '0 1 1', '1 0 1', '1 -1 1'];
  const pos = ['0 0 0', '0.3 0 0', '0 0.3 0', '0 0 0.3', '0.2 -0.1 0', '0 0.2 -0.1', '-0.1 0 0.2'];
  const open = axes
    .map((a, i) => `<body name="l${i + 1}" pos="${pos[i]}"><joint name="h${i + 1}" axis="${a}"/><geom type="capsule" fromto="0 0 0 0.1 0.05 0" size="0.02"/>`)
    .join('\n');
  return `<mujoco model="spatialweld"><compiler angle="radian"/><worldbody>\n${open}\n${axes.map(() => '</body>').join('')}\n</worldbody>
  <equality><weld body1="l7"/></equality></mujoco>`;
})();

/** a planar loop closed by a weld: the fourth link welded to the rocker */
const WELDED = FOURBAR.replace('model="fourbar"', 'model="welded"')
  .replace(
    `        <geom type="capsule" fromto="0 0 0 0.5 0 0.3" size="0.02"/>
      </body>`,
    `        <geom type="capsule" fromto="0 0 0 0.5 0 0.3" size="0.02"/>
        <body name="link" pos="0.5 0 0.3">
          <joint name="j3" axis="0 1 0"/>
          <geom type="capsule" fromto="0 0 0 -0.05 0 -0.15" size="0.02"/>
        </body>
      </body>`,
  )
  .replace('<connect name="pin" body1="coupler" body2="rocker" anchor="0.5 0 0.3"/>', '<weld name="glue" body1="link" body2="rocker"/>');

/** two pendulums on parallel hinges, joint a following joint b by a polynomial (MuJoCo's joint equality) */
const pendulums = (polycoef: string) => `<mujoco model="coupled">
  <compiler angle="radian"/>
  <worldbody>
    <body name="A"><joint name="a" axis="0 1 0" ref="0.2"/><inertial pos="0 0 -0.5" mass="2" diaginertia="1e-3 1e-3 1e-3"/></body>
    <body name="B" pos="1 0 0"><joint name="b" axis="0 1 0" ref="-0.1" damping="0.3"/><inertial pos="0 0 -0.3" mass="1" diaginertia="1e-3 2e-3 1e-3"/></body>
  </worldbody>
  <equality>
    <joint joint1="a" joint2="b" polycoef="${polycoef}"/>
  </equality>
</mujoco>`;

const cases: Case[] = [
  { file: 'coupled.xml', xml: pendulums('0 0.5 0.3 -0.2 0.1'), what: 'two pendulums coupled by a joint equality with a polynomial of degree 4' },
  { file: 'fourbar.xml', xml: FOURBAR, what: 'a planar four-bar closed by a connect (3 rows, 2 independent: the planar point cut)' },
  { file: 'grounded.xml', xml: GROUNDED, what: 'a planar loop closed to the world by a connect without body2' },
  { file: 'spatial.xml', xml: SPATIAL, what: 'a spatial loop (hinges about z, x, y, x) closed by a connect' },
  { file: 'spatialweld.xml', xml: SPATIAL_WELD, what: 'a spatial loop of seven hinges closed to the world by a weld (6 rows)' },
  { file: 'welded.xml', xml: WELDED, what: 'a planar loop closed by a weld (6 rows, 3 independent: the planar weld)' },
  {
    file: 'cassie.xml',
    xml: fixture('cassie.xml'),
    what: "Agility's Cassie (menagerie): four connects, two planar (plantar rods), two through quaternion ball joints (achilles rods), a free pelvis",
    keepBalls: true,
  },
];

describe("MJCF loops: Kron accelerations equal the exact KKT solution of MuJoCo's model", () => {
  for (const k of cases) {
    for (const mode of ['relaxed', 'torn'] as Mode[]) {
      it(`${k.what}; ${mode}: 25 closed states to 1e-9`, async () => {
        const { worst } = await againstKkt(k, mode);
        expect(worst, `largest relative difference, ${k.file} ${mode}`).toBeLessThan(1e-9);
      });
    }
  }
});

describe('MJCF joint equality', () => {
  it('two pendulums coupled 1:1 swing as one: (I_a + I_b) qdd = -(m_a l_a + m_b l_b) g sin q, both forms', () => {
    const xml = pendulums('0 1 0 0 0').replace(' ref="0.2"', '').replace(' ref="-0.1" damping="0.3"', '');
    for (const mode of ['relaxed', 'torn'] as Mode[]) {
      const c = compile(mjcfMechanism(parseMjcf(xml, 'gear.xml')).mechanism, { mode });
      expect(c.stateNames).toEqual(['b.q', 'b.qd']);
      for (const q of [0.3, -1.2, 2.5]) {
        const x = Float64Array.from([q, 0.7]),
          dx = new Float64Array(2);
        c.derivatives(0, x, dx);
        const exact = (-(2 * 0.5 + 1 * 0.3) * 9.81 * Math.sin(q)) / (2 * 0.25 + 1e-3 + 1 * 0.09 + 2e-3);
        expect(dx[1]).toBeCloseTo(exact, 12);
        expect(c.signal('a.q')).toBeCloseTo(q, 14);
      }
    }
  });

  it('a joint equality on a ball joint, or a joint coupled twice: ModelErrors naming the element', () => {
    const xml = (eq: string) =>
      pendulums('0 1')
        .replace(
          '<body name="B" pos="1 0 0">',
          '<body name="B" pos="1 0 0"><body name="C"><joint name="c" type="ball"/><inertial pos="0 0 -0.1" mass="1" diaginertia="1e-3 1e-3 1e-3"/></body>',
        )
        .replace('</equality>', `${eq}\n  </equality>`);
    expect(() => mjcfMechanism(parseMjcf(xml('<joint joint1="c" joint2="b"/>'), 'ball.xml'))).toThrow(/ball\.xml:9: <joint>: joint c is a ball joint/);
    expect(() => mjcfMechanism(parseMjcf(xml('<joint joint1="a"/>'), 'twice.xml'))).toThrow(/twice\.xml:9: <joint>: joint1="a" is already determined/);
  });
});

describe('MJCF connect: the cut', () => {
  it("MuJoCo's connect anchors meet at qpos0: its second anchor is body2's point at the file's pose, where Kron takes it", async () => {
    const peer = await smoothPeer(forMujoco(fixture('cassie.xml')));
    const mj = await mujoco();
    mj.mj_forward(peer.model, peer.data);
    expect(Math.max(...mujocoGaps(peer.model, peer.data))).toBeLessThan(1e-12);
  });

  it('Cassie: the plantar loops are planar with 2 constraints, the achilles loops spatial with 3, the balls stay states', () => {
    const { warnings } = mjcfMechanism(parseMjcf(fixture('cassie.xml'), 'cassie.xml'), { limitsAndFriction: false });
    expect(warnings.join('\n')).not.toMatch(/equality/);
    const { c } = compiled(fixture('cassie.xml'), 'cassie.xml', 'torn');
    const loops = c.report.kinematics!.loops;
    expect(loops.map((l) => [l.cut, l.constraints, l.planar])).toEqual([
      ['left_plantar_rod_left_foot_connect', 2, true],
      ['left_achilles_rod_left_heel_spring_connect', 3, false],
      ['right_plantar_rod_right_foot_connect', 2, true],
      ['right_achilles_rod_right_heel_spring_connect', 3, false],
    ]);
    expect(c.stateNames).toContain('left_achilles_rod.Q[1]');
  });
});

/** the distance of every connect's two anchors, from the cut joints' frames */
function cutFrames(c: CompiledModel): string[][] {
  return c.report.kinematics!.loops.map((l) => [1, 2, 3].flatMap((i) => [`${l.cut}.frame_a.r[${i}]`, `${l.cut}.frame_b.r[${i}]`]));
}

describe("Cassie over 5 s: Kron keeps the loops closed, MuJoCo's soft equality drifts", () => {
  it("the largest anchor gap over 5 s of motion: < 1e-10 m in Kron; MuJoCo's measured on its own run from the same state", async () => {
    const xml = fixture('cassie.xml');
    const { robot, c } = compiled(xml, 'cassie.xml', 'relaxed');
    // the legs set moving: falling freely under gravity alone, nothing inside would move
    const start = {
      'left_knee.qd': 2,
      'right_knee.qd': -1.5,
      'left_hip_pitch.qd': -1,
      'right_foot_crank.qd': 3,
      'left_foot_crank.qd': -2,
      'right_hip_roll.qd': 1,
    };
    const gaps = cutFrames(c);
    const cpu = process.cpuUsage();
    const run = simulate(c, { stop: 5, step: 5e-4, interval: 1e-2, integrator: 'auto', start, signals: gaps.flat() });
    const kronCpu = process.cpuUsage(cpu).user / 1e6;
    const cols = run.columns as readonly Float64Array[];
    let kron = 0;
    for (let k = 0; k < run.time.length; k++) {
      for (let l = 0; l < gaps.length; l++) {
        const d = [0, 1, 2].map((i) => cols[6 * l + 2 * i + 1][k] - cols[6 * l + 2 * i][k]);
        kron = Math.max(kron, Math.hypot(...d));
      }
    }
    // MuJoCo from the same closed state: equality on (soft), contacts, limits and actuation off, armature 0
    const mj = await mujoco();
    const peer = await smoothPeer(forMujoco(xml));
    const m = peer.model,
      d = peer.data,
      flags = mj.mjtDisableBit;
    m.opt.disableflags = (flags.mjDSBL_CONTACT.value | flags.mjDSBL_ACTUATION.value | flags.mjDSBL_LIMIT.value | flags.mjDSBL_FRICTIONLOSS.value) as number;
    const state = c.createState();
    Object.entries(start).forEach(([n, v]) => state.setStart(n, v));
    const x = state.x0(),
      dx = new Float64Array(x.length);
    state.derivatives(0, x, dx);
    const v = mujocoVectors(c, state, jointsOf(robot), x, dx);
    (d.qpos as Float64Array).set(v.qpos);
    (d.qvel as Float64Array).set(v.qvel);
    let soft = 0;
    const steps = Math.round(5 / m.opt.timestep);
    for (let k = 0; k < steps; k++) {
      mj.mj_step(m, d);
      soft = Math.max(soft, ...mujocoGaps(m, d));
    }
    console.log(
      `Cassie, 5 s (Kron ${kronCpu.toFixed(1)} s CPU, ${run.time.length} samples): largest connect gap Kron ${kron.toExponential(2)} m, MuJoCo (soft, timestep ${m.opt.timestep} s) ${soft.toExponential(2)} m`,
    );
    expect(kron).toBeLessThan(1e-10);
    expect(soft).toBeGreaterThan(kron);
  }, 600_000);
});

describe('MJCF equality: hostile', () => {
  const model = (equality: string) => `<mujoco>
  <worldbody>
    <body name="a"><joint name="ja" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.01"/>
      <body name="b" pos="0.1 0 0"><joint name="jb" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.01"/></body>
    </body>
    <body name="c" pos="0.15 0 -0.05"><joint name="jc" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.01"/></body>
  </worldbody>
  <equality>
    ${equality}
  </equality>
</mujoco>`;

  it('an equality naming a body that does not exist: a ModelError with the element and line', () => {
    expect(() => parseMjcf(model('<connect body1="b" body2="nope" anchor="0.1 0 0"/>'), 'bad.xml')).toThrow(ModelError);
    expect(() => parseMjcf(model('<connect body1="b" body2="nope" anchor="0.1 0 0"/>'), 'bad.xml')).toThrow(
      /bad\.xml:9: <connect>: body2="nope" is not a body of the file/,
    );
    expect(() => parseMjcf(model('<joint joint1="ja" joint2="nope"/>'), 'bad.xml')).toThrow(/bad\.xml:9: <joint>: joint2="nope" is not a named joint/);
  });

  it("a weld not closed at the file's pose is assembled: a warning with the distance, and the loop closed at the first evaluation", () => {
    const { mechanism, warnings } = mjcfMechanism(parseMjcf(model('<weld name="near" body1="b" body2="c" relpose="0.05 0 -0.03 1 0 0 0"/>'), 'near.xml'));
    expect(warnings.join('\n')).toMatch(/near\.xml:9: <weld name="near">: not closed at the file's pose \(body2 is 0\.0200 m and 0\.00 rad/);
    const c = compile(mechanism);
    c.derivatives(0, c.x0(), new Float64Array(c.stateNames.length));
    const gap = [1, 2, 3].map((i) => c.signal(`near.frame_b.r[${i}]`) - c.signal(`near.frame_a.r[${i}]`));
    expect(Math.hypot(...gap)).toBeLessThan(1e-12);
  });

  it('a weld that cannot close (relpose 1 m off on 0.1 m links): a typed error naming the weld', () => {
    const { mechanism, warnings } = mjcfMechanism(parseMjcf(model('<weld name="far" body1="b" body2="c" relpose="1 0 0 1 0 0 0"/>'), 'far.xml'));
    expect(warnings.join('\n')).toMatch(/far\.xml:9: <weld name="far">: not closed at the file's pose \(body2 is 0\.951 m/);
    // no states: the loop's Newton runs when a signal is read, and cannot close
    const c = compile(mechanism);
    const error = (() => {
      try {
        c.signal('ja.q');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SimulationError);
    expect((error as SimulationError).message).toMatch(/kinematic loop cut at far \(joints jb, ja, jc\) does not close at time 0/);
  });

  it("a weld holding a planar loop's link 0.2 m out of its plane cannot close: a ModelError naming the cut", () => {
    // (a connect always closes at the file's pose, where its second anchor is taken; a weld's relpose need not)
    const { mechanism } = mjcfMechanism(parseMjcf(model('<weld name="tilted" body1="b" body2="c" relpose="0.05 0.2 -0.05 1 0 0 0"/>'), 'tilt.xml'));
    expect(() => compile(mechanism)).toThrow(
      /planar kinematic loop .* cannot close at tilted: its frames are 0\.2\d* m apart along the planes' normal.* \(tilted is MJCF tilt\.xml:9: <weld name="tilted">\)/,
    );
  });

  it('a loop its joints cannot close: the ModelError names the cut and its <equality> element with file and line', () => {
    // a weld of b to its parent a leaves jb alone to meet 6 constraints; a connect of b to the world, 3 with ja and jb in a plane
    for (const [equality, cut, element] of [
      ['<weld body1="a" body2="b"/>', 'a_b_weld', '<weld>'],
      ['<connect name="pin" body1="b" body2="world" anchor="0.1 0 0"/>', 'pin', '<connect name="pin">'],
    ]) {
      const { mechanism } = mjcfMechanism(parseMjcf(model(equality), 'over.xml'));
      let error: unknown;
      try {
        compile(mechanism);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ModelError);
      expect((error as ModelError).details.component).toBe(cut);
      expect((error as ModelError).message).toContain(`(${cut} is MJCF over.xml:9: ${element})`);
    }
  });

  it('an inactive equality is skipped with a warning; solref and solimp are read and ignored', () => {
    const robot = parseMjcf(
      model(
        '<connect body1="b" body2="c" anchor="0.1 0 0" active="false"/><connect body1="b" body2="c" anchor="0.1 0 0" solref="0.01 1" solimp="0.9 0.95 0.001"/>',
      ),
      'soft.xml',
    );
    expect(robot.equalities).toHaveLength(1);
    expect(robot.warnings.join('\n')).toMatch(/soft\.xml:9: <connect>: active="false": skipped/);
  });
});
