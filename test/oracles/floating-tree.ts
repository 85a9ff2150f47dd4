// Oracle: the description of a tree that may float (joint-tree.ts's OracleTree
// with 'free', 'ball' and 'fixed' joints added), its expansion into a model of
// single joints, the joint models and the kinematics pass, on plain numbers,
// no Kron code. The dynamics on it are in floating.ts.
//
// Coordinates of each link, in link order (the layout of MuJoCo's qpos/qvel):
//   joint       position q                      velocity v                  generalized force tau
//   revolute    angle                           rate                        torque about the axis
//   prismatic   displacement                    rate                        force along the axis
//   universal   2 angles (axis 1, then axis 2)  their rates                 their torques
//   spherical   3 Cardan angles x, y, z         their rates                 their torques
//   ball        Q = (w, x, y, z), 4             w[1..3] (frame_b)           tau[1..3] (frame_b)
//   free        r[1..3] (frame_a), Q, 7         v[1..3] (frame_a), w[1..3]  f[1..3] (frame_a), tau[1..3] (frame_b)
//   fixed       none                            none                        none
// For ball and free: R(Q) maps frame_b to frame_a coordinates (quaternion.ts);
// r is frame_b's origin in frame_a, v = der(r) (for a root: the world-frame
// velocity of the body origin, MuJoCo's free-joint qvel[0..3]); w is frame_b's
// angular velocity relative to frame_a, resolved in frame_b (qvel[3..6]). The
// accelerations dv are the time derivatives of these numbers (MuJoCo's qacc).
// The generalized forces pair with v in power: f . v + tau . w.
//
// Universal and spherical joints are expanded into one-axis revolutes over
// massless frames (Featherstone 2008, sec. 4.4), as joint-tree.ts does; the
// expanded model's coordinates are the description's, in the same order.
//
// Joint model of each single joint (Featherstone 2008, sec. 4.4, Table 4.1),
// in body (= frame_b) coordinates: frame_b relative to frame_a is the rotation
// R (frame_b -> frame_a coordinates) and the origin p (frame_a coordinates);
// the joint's velocity vJ = S v_joint, and cJ = (component-wise d/dt of S) v_joint:
//   revolute   R = Rot(n, q), p = 0      S = [n; 0]                  cJ = 0
//   prismatic  R = 1, p = n q            S = [0; n]                  cJ = 0
//   ball       R = R(Q), p = 0           S = [1; 0]                  cJ = 0
//   free       R = R(Q), p = r           S = [0 1; R^T 0] (v, w)     cJ = [0; -w x R^T v]
// (free: vJ = [w; R^T v]; d/dt R^T = -[w x] R^T since der(R) = R [w x].)
import { type M3, type V3, add, cross, identity, mulMM, mulMV, mulMtV, normalize, rotation } from './rnea.ts';
import { type ForceLaw, type JointType, type OracleBody, SPHERICAL_AXES } from './joint-tree.ts';
import { type Quat, quatMatrix } from './quaternion.ts';
import { type Mat6, type Transform, type Vec6, add6, crossM, join, motionTo, spatialInertia, transpose3, zero6 } from './spatial.ts';

export type FloatingJointType = JointType | 'ball' | 'free' | 'fixed';

export interface FloatingLink {
  /** the link whose joint frame_b this joint hangs from (< own index), -1 for the world */
  parent: number;
  /** the joint's frame_a relative to the parent frame: orientation (frame_a to parent coordinates) and origin */
  E: M3;
  o: V3;
  joint: FloatingJointType;
  /** revolute, prismatic: [axis]; universal: [axis 1, axis 2]; spherical: x, y, z (may be omitted); ball, free, fixed: none */
  axes?: readonly V3[];
  /** undefined: nothing with mass at the joint's frame_b (a massless link) */
  body?: OracleBody;
  /** Q = tau - c (q - q0) - d v on each coordinate of a one-angle or one-length joint; ball and free: Q = tau - d v */
  law?: ForceLaw;
}

export interface FloatingTree {
  links: FloatingLink[];
  /** world-resolved */
  gravity: V3;
}

/** a force on a link's body, world-resolved: force acting at the body's centre of mass (frame_b's origin if massless), and a pure torque */
export interface ExternalForce {
  force: V3;
  torque: V3;
}

export type Kind = 'revolute' | 'prismatic' | 'ball' | 'free' | 'fixed';

/** one single joint with its body, after expansion */
export interface ModelBody {
  /** model body index of the parent, -1 for the world */
  parent: number;
  kind: Kind;
  /** unit axis (revolute, prismatic) */
  n: V3;
  /** frame_a in the parent body frame: orientation (frame_a to parent) and origin */
  E: M3;
  o: V3;
  /** first position and velocity coordinate, and how many */
  qi: number;
  nq: number;
  vi: number;
  nv: number;
  m: number;
  c: V3;
  /** inertia about the CoM, body coordinates */
  Ic: M3;
  /** spatial inertia about the body origin, body coordinates */
  I: Mat6;
}

export interface FloatingModel {
  tree: FloatingTree;
  bodies: ModelBody[];
  nq: number;
  nv: number;
  /** per description link: its coordinates and the model body that carries its frame_b */
  links: { qi: number; nq: number; vi: number; nv: number; body: number }[];
}

const SIZES: Record<Kind, [number, number]> = { revolute: [1, 1], prismatic: [1, 1], ball: [4, 3], free: [7, 6], fixed: [0, 0] };

function axesOf(l: FloatingLink, i: number): V3[] {
  const want = { revolute: 1, prismatic: 1, universal: 2, spherical: 3, ball: 0, free: 0, fixed: 0 }[l.joint];
  const axes = l.joint === 'spherical' && !l.axes?.length ? SPHERICAL_AXES : [...(l.axes ?? [])];
  if (axes.length !== want) throw new Error(`link ${i} (${l.joint}): ${axes.length} axes given, ${want} expected`);
  return axes;
}

function inertiaOf(b: OracleBody | undefined): { m: number; c: V3; Ic: M3 } {
  if (!b)
    return {
      m: 0,
      c: [0, 0, 0],
      Ic: [
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
      ],
    };
  const [xx, yy, zz, xy, xz, yz] = b.I;
  return {
    m: b.m,
    c: b.c,
    Ic: [
      [xx, xy, xz],
      [xy, yy, yz],
      [xz, yz, zz],
    ],
  };
}

// (description) => the model of single joints, universal and spherical expanded
export function floatingModel(tree: FloatingTree): FloatingModel {
  const bodies: ModelBody[] = [],
    links: FloatingModel['links'] = [];
  let nq = 0,
    nv = 0;
  tree.links.forEach((l, i) => {
    if (!(l.parent < i)) throw new Error(`link ${i}: parent ${l.parent} must come before it`);
    const axes = axesOf(l, i);
    const kinds: [Kind, V3][] = l.joint === 'universal' || l.joint === 'spherical' ? axes.map((a) => ['revolute', a]) : [[l.joint, axes[0] ?? [1, 0, 0]]];
    const first = { qi: nq, vi: nv };
    kinds.forEach(([kind, axis], k) => {
      const last = k === kinds.length - 1;
      const { m, c, Ic } = inertiaOf(last ? l.body : undefined);
      const [dq, dv] = SIZES[kind];
      bodies.push({
        parent: k > 0 ? bodies.length - 1 : l.parent < 0 ? -1 : links[l.parent].body,
        kind,
        n: normalize(axis),
        E: k === 0 ? l.E : identity(),
        o: k === 0 ? l.o : [0, 0, 0],
        qi: nq,
        nq: dq,
        vi: nv,
        nv: dv,
        m,
        c,
        Ic,
        I: spatialInertia(m, c, Ic),
      });
      nq += dq;
      nv += dv;
    });
    links.push({ ...first, nq: nq - first.qi, nv: nv - first.vi, body: bodies.length - 1 });
  });
  return { tree, bodies, nq, nv, links };
}

export interface JointMotion {
  /** frame_b to frame_a coordinates */
  R: M3;
  /** frame_b's origin in frame_a coordinates */
  p: V3;
  /** motion subspace, one 6-vector per velocity coordinate, body coordinates */
  S: Vec6[];
  cJ: Vec6;
}

const slice3 = (x: readonly number[], i: number): V3 => [x[i], x[i + 1], x[i + 2]];
const quatAt = (x: readonly number[], i: number): Quat => [x[i], x[i + 1], x[i + 2], x[i + 3]];

// (model body, q, v) => the joint's relative pose, motion subspace and cJ (header table)
export function jointMotion(b: ModelBody, q: readonly number[], v: readonly number[], what: string): JointMotion {
  const e = (k: number): V3 => [k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0];
  switch (b.kind) {
    case 'revolute':
      return { R: rotation(b.n, q[b.qi]), p: [0, 0, 0], S: [join(b.n, [0, 0, 0])], cJ: zero6() };
    case 'prismatic':
      return { R: identity(), p: b.n.map((x) => x * q[b.qi]) as V3, S: [join([0, 0, 0], b.n)], cJ: zero6() };
    case 'ball':
      return { R: quatMatrix(quatAt(q, b.qi), `${what}: ball joint Q`), p: [0, 0, 0], S: [0, 1, 2].map((k) => join(e(k), [0, 0, 0])), cJ: zero6() };
    case 'free': {
      const R = quatMatrix(quatAt(q, b.qi + 3), `${what}: free joint Q`);
      const Rt = transpose3(R);
      const vb = mulMtV(R, slice3(v, b.vi));
      const S = [...[0, 1, 2].map((k) => join([0, 0, 0], [Rt[0][k], Rt[1][k], Rt[2][k]])), ...[0, 1, 2].map((k) => join(e(k), [0, 0, 0]))];
      const c = cross(slice3(v, b.vi + 3), vb);
      return { R, p: slice3(q, b.qi), S, cJ: [0, 0, 0, -c[0], -c[1], -c[2]] };
    }
    case 'fixed':
      return { R: identity(), p: [0, 0, 0], S: [], cJ: zero6() };
  }
}

export interface BodyMotion {
  /** parent body (or world) to this body */
  X: Transform;
  /** body to world coordinates, and the body origin in the world */
  R: M3;
  p: V3;
  S: Vec6[];
  cJ: Vec6;
  /** joint velocity S v_joint and the body's spatial velocity, body coordinates */
  vJ: Vec6;
  v: Vec6;
}

/** S x for the joint's velocity coordinates x (a slice of a v-sized vector) */
export function subspaceTimes(S: readonly Vec6[], x: readonly number[], at: number): Vec6 {
  return S.reduce(
    (acc, s, k) =>
      add6(
        acc,
        s.map((y) => y * x[at + k]),
      ),
    zero6(),
  );
}

// (model, q, v) => every body's transform, world pose and spatial velocity, root to leaves
export function kinematics(model: FloatingModel, q: readonly number[], v: readonly number[]): BodyMotion[] {
  if (q.length !== model.nq || v.length !== model.nv)
    throw new Error(`state has ${q.length} positions and ${v.length} velocities, the model ${model.nq} and ${model.nv}`);
  const out: BodyMotion[] = [];
  model.bodies.forEach((b, i) => {
    const J = jointMotion(b, q, v, `body ${i}`);
    const Eb = mulMM(b.E, J.R); // body to parent coordinates
    const X: Transform = { E: transpose3(Eb), r: add(b.o, mulMV(b.E, J.p)) };
    const P = b.parent < 0 ? { R: identity(), p: [0, 0, 0] as V3, v: zero6() } : out[b.parent];
    const vJ = subspaceTimes(J.S, v, b.vi);
    out.push({ X, R: mulMM(P.R, Eb), p: add(P.p, mulMV(P.R, X.r)), S: J.S, cJ: J.cJ, vJ, v: add6(motionTo(X, P.v), vJ) });
  });
  return out;
}

/** c_i = cJ + v_i xm vJ: the velocity-product acceleration of body i (Table 7.1) */
export const velocityProduct = (m: BodyMotion): Vec6 => add6(m.cJ, crossM(m.v, m.vJ));
