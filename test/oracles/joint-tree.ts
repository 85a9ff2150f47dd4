// Oracle: forward dynamics of a tree with every joint type of Kron's library,
// plain numbers, no Kron code. (tree, q, qd, forces) => qdd, or "singular".
//
// Each joint is written as its sequence of one-axis joints over massless
// frames (Featherstone 2008, sec. 4.4: a multi-DoF joint is a chain of
// single-DoF joints joined by massless bodies), which the RNEA oracle
// (rnea.ts) already handles:
//   revolute    one axis                  prismatic   one axis
//   universal   axis 1, then axis 2 in the frame left by rotation 1 (default x, y)
//   spherical   x, then y, then z, each in the frame left by the rotations before:
//               R_b = R_a Rx(q1) Ry(q2) Rz(q3)
// Kron's convention for these is in src/library/multibody/rotation-sequence.ts;
// what is reimplemented here is only that convention, not its equations.
//
// Dynamics: M(q) by columns of the RNEA with zero gravity and zero speed
// (Walker & Orin 1982, method 1), h(q, qd) = RNEA(q, qd, 0) with gravity,
// then M qdd = Q - h solved by the scaled, classifying solve of symmetric.ts.
// Generalized forces of a coordinate: Q = tau - c (q - q0) - d qd (joint.ts).
import { type M3, type RneaBody, type RneaTree, type V3, add, identity, mulMM, mulMV, normalize, rnea, rotation } from './rnea.ts';
import { type SpdSolution, solveSymmetricPsd } from './symmetric.ts';

export type JointType = 'revolute' | 'prismatic' | 'spherical' | 'universal';

/** a rigid body attached at a joint's frame_b (body coordinates = frame_b) */
export interface OracleBody {
  m: number;
  /** centre of mass in frame_b coordinates */
  c: V3;
  /** inertia about the CoM: [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] */
  I: [number, number, number, number, number, number];
}

/** a spring-damper on each coordinate of the joint: Q = tau - c (q - q0) - d qd */
export interface ForceLaw {
  c: number;
  q0: number;
  d: number;
}

export interface OracleLink {
  /** the link whose joint frame_b this joint hangs from (< own index), -1 for the world */
  parent: number;
  /** the joint's frame_a relative to the parent frame: orientation (joint to parent coordinates) and origin */
  E: M3;
  o: V3;
  joint: JointType;
  /** one axis per coordinate, each in the frame left by the rotations before it; filled in for spherical */
  axes: V3[];
  /** undefined: nothing with mass at the joint's frame_b (a massless link) */
  body?: OracleBody;
  law: ForceLaw;
}

export interface OracleTree {
  links: OracleLink[];
  /** world-resolved */
  gravity: V3;
}

/** a frame rigidly attached to a link's frame_b (or to the world, link -1) */
export interface AttachedFrame {
  link: number;
  E: M3;
  o: V3;
}

export const SPHERICAL_AXES: V3[] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

/** the axes of a joint as Kron defines them */
export function jointAxes(joint: JointType, axes?: readonly V3[]): V3[] {
  if (joint === 'spherical') return SPHERICAL_AXES;
  if (joint === 'universal')
    return axes
      ? [axes[0], axes[1]]
      : [
          [1, 0, 0],
          [0, 1, 0],
        ];
  return [axes![0]];
}

export interface Expanded {
  rnea: RneaTree;
  /** for each link, the index of its first coordinate; coordinates = RNEA bodies */
  first: number[];
  /** for each link, the RNEA body that carries its frame_b */
  last: number[];
  /** per coordinate, its force law */
  laws: ForceLaw[];
}

// (tree) => the RNEA tree of one-axis joints over massless frames
export function expand(tree: OracleTree): Expanded {
  const bodies: RneaBody[] = [],
    first: number[] = [],
    last: number[] = [],
    laws: ForceLaw[] = [];
  const none: OracleBody = { m: 0, c: [0, 0, 0], I: [0, 0, 0, 0, 0, 0] };
  tree.links.forEach((l, i) => {
    if (!(l.parent < i)) throw new Error(`link ${i}: parent ${l.parent} must come before it`);
    first.push(bodies.length);
    const type = l.joint === 'prismatic' ? 'prismatic' : 'revolute';
    l.axes.forEach((axis, k) => {
      const atEnd = k === l.axes.length - 1;
      const b = atEnd ? (l.body ?? none) : none;
      const parent = k === 0 ? (l.parent < 0 ? -1 : last[l.parent]) : bodies.length - 1;
      bodies.push({ parent, joint: type, axis, E: k === 0 ? l.E : identity(), o: k === 0 ? l.o : [0, 0, 0], m: b.m, c: b.c, I: b.I });
      laws.push(l.law);
    });
    last.push(bodies.length - 1);
  });
  return { rnea: { bodies, gravity: tree.gravity }, first, last, laws };
}

export interface Pose {
  /** body to world coordinates */
  R: M3;
  /** origin, world */
  r: V3;
}

// (RNEA tree, q) => the pose of every RNEA body frame (a joint's frame_b after each axis)
export function poses(t: RneaTree, q: readonly number[]): Pose[] {
  const out: Pose[] = [];
  t.bodies.forEach((b, i) => {
    const p = b.parent < 0 ? { R: identity(), r: [0, 0, 0] as V3 } : out[b.parent];
    const n = normalize(b.axis);
    const prismatic = b.joint === 'prismatic';
    const X = prismatic ? b.E : mulMM(b.E, rotation(n, q[i]));
    const d = prismatic ? add(b.o, mulMV(b.E, [n[0] * q[i], n[1] * q[i], n[2] * q[i]])) : b.o;
    out.push({ R: mulMM(p.R, X), r: add(p.r, mulMV(p.R, d)) });
  });
  return out;
}

/** the world pose of a frame attached to a link, from the poses of the RNEA bodies */
export function framePose(x: Expanded, all: readonly Pose[], f: AttachedFrame): Pose {
  const p = f.link < 0 ? { R: identity(), r: [0, 0, 0] as V3 } : all[x.last[f.link]];
  return { R: mulMM(p.R, f.E), r: add(p.r, mulMV(p.R, f.o)) };
}

// (tree, q) => M(q), by RNEA columns with no gravity and no speed
export function massMatrix(t: RneaTree, q: readonly number[]): number[][] {
  const n = t.bodies.length;
  const still = { ...t, gravity: [0, 0, 0] as V3 };
  const zero = new Array<number>(n).fill(0);
  const cols = Array.from({ length: n }, (_, j) =>
    rnea(
      still,
      q,
      zero,
      zero.map((_, k) => (k === j ? 1 : 0)),
    ),
  );
  // symmetric by theory; average the two halves so the eigen solver sees an exactly symmetric matrix
  return cols.map((_, i) => cols.map((_, j) => (cols[j][i] + cols[i][j]) / 2));
}

/** generalized forces of the inputs and the spring-dampers: Q = tau - c (q - q0) - d qd */
export function appliedForces(laws: readonly ForceLaw[], q: readonly number[], qd: readonly number[], tau: readonly number[]): number[] {
  return laws.map((l, i) => tau[i] - l.c * (q[i] - l.q0) - l.d * qd[i]);
}

// (tree, q, qd, tau) => qdd with its condition, or singular
export function forwardDynamics(x: Expanded, q: readonly number[], qd: readonly number[], tau: readonly number[]): SpdSolution {
  const n = q.length;
  const h = rnea(x.rnea, q, qd, new Array<number>(n).fill(0));
  const Q = appliedForces(x.laws, q, qd, tau);
  return solveSymmetricPsd(
    massMatrix(x.rnea, q),
    Q.map((v, i) => v - h[i]),
  );
}
