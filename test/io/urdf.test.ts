// URDF import against oracles: one moving joint behind a fixed mount, with
// random origins (xyz, rpy), axes, inertial frames, full inertia tensors and
// damping, against the single-axis equation of motion computed here with
// plain matrices; geometry, names and warnings of what is not modelled.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { Body } from '../../src/library/multibody/body.ts';
import { parseUrdf, urdfMechanism } from '../../src/io/urdf.ts';
import { STANDARD_GRAVITY } from '../../src/library/multibody/world.ts';
import { prng } from '../multibody/random-tree.ts';

type V = [number, number, number];
type M = [V, V, V];

const mm = (a: M, b: M): M => a.map((row) => [0, 1, 2].map((j) => row[0] * b[0][j] + row[1] * b[1][j] + row[2] * b[2][j])) as M;
const mv = (a: M, v: V): V => a.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]) as V;
const tr = (a: M): M => [0, 1, 2].map((i) => [a[0][i], a[1][i], a[2][i]]) as M;
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (k: number, a: V): V => [k * a[0], k * a[1], k * a[2]];
const rx = (t: number): M => [
  [1, 0, 0],
  [0, Math.cos(t), -Math.sin(t)],
  [0, Math.sin(t), Math.cos(t)],
];
const ry = (t: number): M => [
  [Math.cos(t), 0, Math.sin(t)],
  [0, 1, 0],
  [-Math.sin(t), 0, Math.cos(t)],
];
const rz = (t: number): M => [
  [Math.cos(t), -Math.sin(t), 0],
  [Math.sin(t), Math.cos(t), 0],
  [0, 0, 1],
];
/** URDF: fixed-axis roll about x, then pitch about y, then yaw about z */
const rpy = ([r, p, y]: V): M => mm(rz(y), mm(ry(p), rx(r)));
/** rotation by angle t about the unit axis n (Rodrigues) */
function rot(n: V, t: number): M {
  const [c, s, k] = [Math.cos(t), Math.sin(t), 1 - Math.cos(t)];
  return [
    [c + k * n[0] * n[0], k * n[0] * n[1] - s * n[2], k * n[0] * n[2] + s * n[1]],
    [k * n[1] * n[0] + s * n[2], c + k * n[1] * n[1], k * n[1] * n[2] - s * n[0]],
    [k * n[2] * n[0] - s * n[1], k * n[2] * n[1] + s * n[0], c + k * n[2] * n[2]],
  ];
}

interface Case {
  type: 'revolute' | 'continuous' | 'prismatic';
  mount: { xyz: V; rpy: V };
  origin: { xyz: V; rpy: V };
  axis: V;
  damping: number;
  inertial: { xyz: V; rpy: V; m: number; I: M };
  q: number;
  qd: number;
  tau: number;
}

/** the inertia of four point masses about their centre of mass: always physical */
function physicalInertia(r: (lo: number, hi: number) => number): M {
  const pts = Array.from({ length: 4 }, () => [r(0.1, 1), [r(-0.3, 0.3), r(-0.3, 0.3), r(-0.3, 0.3)] as V] as const);
  const mass = pts.reduce((s, [m]) => s + m, 0);
  const c = scale(
    1 / mass,
    pts.reduce((s, [m, p]) => add(s, scale(m, p)), [0, 0, 0] as V),
  );
  const I: M = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  for (const [m, p0] of pts) {
    const p = add(p0, scale(-1, c));
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) I[i][j] += m * ((i === j ? dot(p, p) : 0) - p[i] * p[j]);
  }
  return I;
}

function randomCase(seed: number, type: Case['type']): Case {
  const u = prng(seed);
  const r = (lo: number, hi: number) => lo + (hi - lo) * u();
  const v = (lo: number, hi: number): V => [r(lo, hi), r(lo, hi), r(lo, hi)];
  return {
    type,
    mount: { xyz: v(-0.5, 0.5), rpy: v(-Math.PI, Math.PI) },
    origin: { xyz: v(-0.5, 0.5), rpy: v(-Math.PI, Math.PI) },
    axis: v(-1, 1),
    damping: r(0, 0.5),
    inertial: { xyz: v(-0.4, 0.4), rpy: v(-Math.PI, Math.PI), m: r(0.5, 3), I: physicalInertia(r) },
    q: r(-Math.PI, Math.PI),
    qd: r(-2, 2),
    tau: r(-3, 3),
  };
}

const pose = (p: { xyz: V; rpy: V }) => `<origin xyz="${p.xyz.join(' ')}" rpy="${p.rpy.join(' ')}"/>`;

/** limits beyond the random coordinates (|q| < pi): the limit springs stay slack (test/limits/ checks them); a continuous joint has none */
const limit = (c: Case) => (c.type === 'continuous' ? '<limit effort="1" velocity="1"/>' : '<limit lower="-4" upper="4" effort="1" velocity="1"/>');

function caseUrdf(c: Case): string {
  const I = c.inertial.I;
  return `<robot name="single">
  <link name="base"/>
  <link name="plate"><inertial><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="arm">
    <inertial>${pose(c.inertial)}<mass value="${c.inertial.m}"/>
      <inertia ixx="${I[0][0]}" iyy="${I[1][1]}" izz="${I[2][2]}" ixy="${I[0][1]}" ixz="${I[0][2]}" iyz="${I[1][2]}"/>
    </inertial>
  </link>
  <joint name="mount" type="fixed"><parent link="base"/><child link="plate"/>${pose(c.mount)}</joint>
  <joint name="j" type="${c.type}"><parent link="plate"/><child link="arm"/>${pose(c.origin)}
    <axis xyz="${c.axis.join(' ')}"/><dynamics damping="${c.damping}"/>${limit(c)}
  </joint>
</robot>`;
}

/** the joint's acceleration from the equation of motion about (along) one fixed axis */
function oracle(c: Case): number {
  const g: V = [0, 0, -STANDARD_GRAVITY];
  const RJ = mm(rpy(c.mount.rpy), rpy(c.origin.rpy));
  const a = scale(1 / Math.hypot(...c.axis), c.axis);
  const e = mv(RJ, a);
  const { m } = c.inertial;
  const drive = c.tau - c.damping * c.qd;
  if (c.type === 'prismatic') return (drive + m * dot(g, e)) / m;
  const RL = mm(RJ, rot(a, c.q));
  const r = mv(RL, c.inertial.xyz); // centre of mass from the joint's point on the axis
  const Rc = mm(RL, rpy(c.inertial.rpy));
  const Ic = mm(mm(Rc, c.inertial.I), tr(Rc));
  // rotation about a fixed axis: gyroscopic and centripetal terms have no moment about it
  const ec = cross(e, r);
  return (drive + dot(e, cross(r, scale(m, g)))) / (dot(e, mv(Ic, e)) + m * dot(ec, ec));
}

describe('URDF joints against the single-axis equation of motion', () => {
  for (const type of ['revolute', 'continuous', 'prismatic'] as const) {
    it(`${type}: 20 random origins, axes, inertials and states (1e-10)`, () => {
      for (let k = 0; k < 20; k++) {
        const c = randomCase(1000 * k + type.length, type);
        const { mechanism, warnings } = urdfMechanism(parseUrdf(caseUrdf(c)));
        expect(warnings).toEqual([]);
        for (const mode of ['torn', 'relaxed'] as const) {
          const compiled = compile(mechanism, { mode });
          expect(compiled.stateNames).toEqual(['j.q', 'j.qd']);
          compiled.setInput('j.tau', c.tau);
          compiled.derivatives(0, Float64Array.of(c.q, c.qd), new Float64Array(2));
          const want = oracle(c);
          expect(Math.abs(compiled.signal('der(j.qd)') - want), `case ${k} ${mode}`).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(want)));
        }
      }
    });
  }
  it('places the link frame by origin, then joint: frame R and r against the matrix product', () => {
    const c = randomCase(7, 'revolute');
    const compiled = compile(urdfMechanism(parseUrdf(caseUrdf(c))).mechanism);
    compiled.derivatives(0, Float64Array.of(c.q, c.qd), new Float64Array(2));
    const a = scale(1 / Math.hypot(...c.axis), c.axis);
    const RL = mm(mm(rpy(c.mount.rpy), rpy(c.origin.rpy)), rot(a, c.q));
    const p = add(c.mount.xyz, mv(rpy(c.mount.rpy), c.origin.xyz));
    for (let i = 0; i < 3; i++) {
      expect(compiled.signal(`arm.frame_a.r[${i + 1}]`)).toBeCloseTo(p[i], 13);
      for (let j = 0; j < 3; j++) expect(compiled.signal(`arm.frame_a.R[${i + 1}][${j + 1}]`)).toBeCloseTo(RL[i][j], 13);
    }
  });
});

describe('URDF visuals, names and what is not modelled', () => {
  const robot = `<robot name="shapes-bot">
  <material name="teal"><color rgba="0 0.5 0.5 1"/></material>
  <link name="base"><visual><geometry><box size="1 2 3"/></geometry><material name="teal"/></visual></link>
  <link name="a">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0.1 0.2 0.3" rpy="1.5707963267948966 0 0"/><geometry><cylinder radius="0.05" length="0.4"/></geometry>
      <material><color rgba="1 0 0 1"/></material></visual>
    <visual><geometry><sphere radius="1"/></geometry></visual>
  </link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin rpy="0 0 1.5707963267948966"/><geometry><box size="0.1 0.2 0.3"/></geometry></visual></link>
  <link name="c"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><mesh filename="package://arm/c.stl"/></geometry></visual></link>
  <link name="d"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin rpy="0.3 0 0"/><geometry><box size="0.1 0.2 0.3"/></geometry></visual></link>
  <link name="j-2"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><sphere radius="0.02"/></geometry></visual></link>
  <joint name="j-1" type="continuous"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/><dynamics damping="0.1" friction="0.2"/></joint>
  <joint name="j-2" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 1 0"/><mimic joint="j-1"/></joint>
  <joint name="j3" type="prismatic"><parent link="b"/><child link="c"/><origin xyz="0 0 1"/></joint>
  <joint name="j4" type="fixed"><parent link="c"/><child link="d"/><origin rpy="0 0.5 0"/></joint>
  <joint name="j5" type="revolute"><parent link="d"/><child link="j-2"/><axis xyz="1 0 0"/></joint>
</robot>`;
  const { mechanism, warnings } = urdfMechanism(parseUrdf(robot, 'shapes.urdf'));
  const body = (name: string) => mechanism.children.find((c) => c.localName === name) as Body;

  it('turns box, cylinder and sphere into Geometry with offsets, axes, rotations and colours; a mesh not found into a placeholder', () => {
    expect(body('base').geometry).toEqual({ shape: { type: 'box', size: [1, 2, 3] }, color: '#008080', offset: [0, 0, 0] });
    const a = body('a').geometry!;
    expect(a.shape).toEqual({ type: 'cylinder', radius: 0.05, length: 0.4 });
    expect(a.color).toBe('#ff0000');
    expect(a.offset).toEqual([0.1, 0.2, 0.3]);
    expect(a.axis).toEqual([0, -1, 0]); // Rx(pi/2) z = -y
    expect(body('b').geometry!.shape).toEqual({ type: 'box', size: [0.2, 0.1, 0.3] }); // a quarter turn about z swaps x and y
    expect(body('c').geometry!.shape).toEqual({ type: 'mesh', filename: 'package://arm/c.stl', radius: 0.05 });
    // a box turned by other than right angles keeps its size and carries its rotation: Rx(0.3) as a quaternion
    expect(body('d').geometry).toMatchObject({ shape: { type: 'box', size: [0.1, 0.2, 0.3] }, orientation: [Math.sin(0.15), 0, 0, Math.cos(0.15)] });
  });
  it('warns about what it does not model and about renamed elements', () => {
    expect(warnings.sort()).toEqual([
      'joint j-1 is the component j_1',
      'joint j-2 is the component j_2',
      'joint j-2: <mimic> is not modelled, the joint moves freely',
      'link a: 2 <visual> elements, only the first is drawn',
      'link c: mesh "package://arm/c.stl" is not found next to the URDF, drawn as a placeholder sphere',
      'link j-2 is the component j_2_2',
    ]);
    expect(mechanism.title).toBe('shapes-bot');
  });
  it('compiles: continuous, revolute and prismatic joints are states, the fixed joint is not; damping is the damper d, friction the friction level', () => {
    const c = compile(mechanism, { foldParameters: false });
    expect(c.stateNames).toEqual(['j_1.q', 'j_1.qd', 'j_2.q', 'j_2.qd', 'j3.q', 'j3.qd', 'j5.q', 'j5.qd']);
    expect(c.signal('j_1.d')).toBe(0.1);
    expect(c.signal('j_1.friction')).toBe(0.2);
  });
});
