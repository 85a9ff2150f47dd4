// A humanoid-like branched tree, the benchmark's case for branch-induced
// sparsity (Featherstone 2005, a 30-dof humanoid): a pelvis that slides
// vertically on a spring-damper and turns about the vertical and about its
// lateral axis, then five branches off two hubs — two legs (hip z, x, y; knee;
// ankle y, x) from the pelvis, a spine (waist y, x, z) to the chest, and off
// the chest two arms (shoulder z, x, y; elbow; wrist z, x) and a neck (y, x)
// to the head. 32 degrees of freedom (3 + 2 × 6 + 3 + 2 × 6 + 2), gravity along -y; every joint carries a
// body (the small ones stand for the motors between the axes of a compound
// joint), as in MuJoCo's humanoid models. With floating: 1 the pelvis is on a
// free joint `base` instead (issue 29: 6 + 29 degrees of freedom) and the
// humanoid falls freely (it has no collision geometry):
//   npx kron simulate mechanisms/humanoid.ts --set floating=1 --stop 2 --out fall.json
//   npx kron view fall.json --track pelvis
import { type Frame, Mechanism } from 'kron';

export const parameters = {
  /** pelvis slide: stiffness and damping (without them the whole tree falls freely) */
  kS: 5000,
  dS: 100,
  /** segment masses (kg) */
  mPelvis: 10,
  mChest: 20,
  mHead: 5,
  mThigh: 7,
  mShank: 3.5,
  mFoot: 1,
  mUpperArm: 2,
  mForearm: 1.2,
  mHand: 0.5,
  /** mass of the small body between two axes of a compound joint */
  mMotor: 0.3,
  /** segment lengths (m) */
  LThigh: 0.42,
  LShank: 0.4,
  LFoot: 0.2,
  LSpine: 0.3,
  LChest: 0.25,
  LUpperArm: 0.3,
  LForearm: 0.27,
  LHand: 0.15,
  LNeck: 0.1,
  LHead: 0.2,
  /** half the hip and shoulder widths */
  wHip: 0.1,
  wShoulder: 0.18,
  /** start values: the joint angles scale */
  q0: 0.2,
  /** 1: the pelvis on a free joint `base` (states base.r, base.Q, base.v, base.w), not on the slide and two turns */
  floating: 0,
};

type P = typeof parameters;
type Axis = readonly [number, number, number];
const X: Axis = [1, 0, 0],
  Y: Axis = [0, 1, 0],
  Z: Axis = [0, 0, 1];

export default function build(p: Partial<P> = {}): Mechanism {
  const o = { ...parameters, ...p };
  const mech = new Mechanism('humanoid');
  let q = 0;
  // a start angle per joint, varied so that no two links line up by accident
  const next = () => o.q0 * Math.sin(1.7 * ++q);
  const base = o.floating ? floatingBase(mech) : slidingBase(mech, o, next);
  const pelvis = segment(mech, 'pelvis', base, o.mPelvis, [0, 0.1, 0], 0.1);
  for (const [side, s] of [
    ['L', 1],
    ['R', -1],
  ] as const) {
    const hip = mech.bar(`hip${side}`, { r: [0, 0, s * o.wHip] });
    mech.connect(pelvis, hip.frame_a);
    const thigh = segment(mech, `thigh${side}`, joints(mech, `hip${side}`, hip.frame_b, [Z, X, Y], o, next), o.mThigh, [0, -o.LThigh, 0]);
    const shank = segment(mech, `shank${side}`, joints(mech, `knee${side}`, thigh, [Z], o, next), o.mShank, [0, -o.LShank, 0]);
    segment(mech, `foot${side}`, joints(mech, `ankle${side}`, shank, [Y, X], o, next), o.mFoot, [o.LFoot, 0, 0]);
  }
  const spine = segment(mech, 'spine', joints(mech, 'waist', pelvis, [Y, X, Z], o, next), o.mChest / 2, [0, o.LSpine, 0]);
  const chest = segment(mech, 'chest', spine, o.mChest / 2, [0, o.LChest, 0], 0.15);
  for (const [side, s] of [
    ['L', 1],
    ['R', -1],
  ] as const) {
    const shoulder = mech.bar(`shoulder${side}`, { r: [0, 0, s * o.wShoulder] });
    mech.connect(chest, shoulder.frame_a);
    const upper = segment(mech, `upperArm${side}`, joints(mech, `shoulder${side}`, shoulder.frame_b, [Z, X, Y], o, next), o.mUpperArm, [0, -o.LUpperArm, 0]);
    const fore = segment(mech, `forearm${side}`, joints(mech, `elbow${side}`, upper, [Z], o, next), o.mForearm, [0, -o.LForearm, 0]);
    segment(mech, `hand${side}`, joints(mech, `wrist${side}`, fore, [Z, X], o, next), o.mHand, [0, -o.LHand, 0]);
  }
  const neck = segment(mech, 'neck', joints(mech, 'neck', chest, [Y, X], o, next), o.mMotor, [0, o.LNeck, 0]);
  segment(mech, 'head', neck, o.mHead, [0, o.LHead, 0], 0.1);
  return mech;
}

/** the pelvis's frame on a vertical spring-damper slide and two turns (about the vertical and the lateral axis) */
function slidingBase(mech: Mechanism, o: P, next: () => number): Frame {
  const slide = mech.prismatic('slide', { axis: [...Y], c: o.kS, d: o.dS });
  mech.connect(mech.world.frame_b, slide.frame_a);
  return joints(mech, 'base', slide.frame_b, [Y, Z], o, next);
}

/** the pelvis's frame on a free joint at the world's origin, at rest */
function floatingBase(mech: Mechanism): Frame {
  const free = mech.free('base');
  mech.connect(mech.world.frame_b, free.frame_a);
  return free.frame_b;
}

/**
 * Revolute joints about the given axes, one after another at the same point;
 * between two of them a small body (the motor of the next axis). Returns the
 * last joint's frame_b.
 */
function joints(mech: Mechanism, name: string, from: Frame, axes: readonly Axis[], o: P, next: () => number): Frame {
  let parent = from;
  axes.forEach((axis, i) => {
    const j = mech.revolute(`${name}${axes.length > 1 ? i + 1 : ''}`, { axis: [...axis], q: next() });
    mech.connect(parent, j.frame_a);
    if (i < axes.length - 1) {
      const motor = mech.body(`${name}Motor${i + 1}`, { m: o.mMotor, I: [1e-4, 1e-4, 1e-4] });
      mech.connect(j.frame_b, motor.frame_a);
    }
    parent = j.frame_b;
  });
  return parent;
}

/**
 * A link of mass m from `from` along r: a rod-like body (centre of mass at
 * r/2, the inertia of a slender cylinder of the given radius) and a bar to
 * its far end, which is returned.
 */
function segment(mech: Mechanism, name: string, from: Frame, m: number, r: readonly [number, number, number], radius = 0.04): Frame {
  const L = Math.hypot(...r);
  const axial = (m * radius * radius) / 2,
    transverse = (m * (3 * radius * radius + L * L)) / 12;
  // the principal axes of the link frame: the rod lies along one of x, y
  const I: [number, number, number] = r[0] !== 0 ? [axial, transverse, transverse] : [transverse, axial, transverse];
  const body = mech.body(name, { m, rcm: [r[0] / 2, r[1] / 2, r[2] / 2], I });
  const bar = mech.bar(`${name}End`, { r: [...r] });
  mech.connect(from, body.frame_a);
  mech.connect(from, bar.frame_a);
  return bar.frame_b;
}
