// Oracle: a floating tree written as the joint tree of joint-tree.ts (one-axis
// joints over massless frames), with the state, the inputs and the
// accelerations carried across, so that the older oracles — joint-tree.ts for
// trees, loops.ts (KKT) for loops — judge floating mechanisms too, away from
// gimbal lock. Plain numbers, no Kron code.
//
//   ball   -> spherical: Cardan angles a, R(Q) = Rx(a1) Ry(a2) Rz(a3)
//   free   -> three sliders along frame_a's x, y, z (massless), then a Cardan
//             spherical with the body: r = (p1, p2, p3), v = dp/dt
//   fixed  -> no joint: the body is added to the link it is fixed to
//             (parallel-axis theorem), its children hang from that link
//   others -> themselves
// Angular velocity in frame_b from the Cardan rates (w = J(a) da, the
// columns are the three axes seen from frame_b):
//   J(a) = [Rz^T Ry^T x, Rz^T y, z],  det J = cos a2 (gimbal lock at a2 = +-90 deg)
// The generalized forces of the two coordinate sets pair with their rates in
// the same power: tau_Cardan = J^T tau. Accelerations: dw/dt = J dda + (dJ/dt) da.
import { type M3, type V3, add, cross, identity, mulMM, mulMV, mulMtV, rotation, scale } from './rnea.ts';
import { type AttachedFrame, type OracleBody, type OracleLink, type OracleTree, SPHERICAL_AXES } from './joint-tree.ts';
import { type FloatingTree, floatingModel } from './floating-tree.ts';
import { type Quat, quatMatrix } from './quaternion.ts';
import { solveDense } from './gauss.ts';
import { transpose3 } from './spatial.ts';

export interface CardanEquivalent {
  tree: OracleTree;
  /** per floating link: its frame_b as a frame attached to a link of the joint tree (-1: the world) */
  at: AttachedFrame[];
}

/** a frame at (E, o) in floating link l's frame_b (l = -1: the world), attached to the joint tree (cuts of loops.ts) */
export function attach(ce: CardanEquivalent, l: number, E: M3, o: V3): AttachedFrame {
  if (l < 0) return { link: -1, E, o };
  const a = ce.at[l];
  return { link: a.link, E: mulMM(a.E, E), o: add(a.o, mulMV(a.E, o)) };
}

/** body b fixed at (E, o) in a's frame, added to a (either may be absent): mass, centre and inertia about it in a's frame */
export function mergeBodies(a: OracleBody | undefined, b: OracleBody, E: M3, o: V3): OracleBody {
  const A = a ?? { m: 0, c: [0, 0, 0], I: [0, 0, 0, 0, 0, 0] };
  const cb = add(o, mulMV(E, b.c));
  const m = A.m + b.m;
  const c = m > 0 ? scale(1 / m, add(scale(A.m, A.c), scale(b.m, cb))) : cb;
  const full = (I: readonly number[]): M3 => [
    [I[0], I[3], I[4]],
    [I[3], I[1], I[5]],
    [I[4], I[5], I[2]],
  ];
  const Ib = mulMM(mulMM(E, full(b.I)), transpose3(E));
  // Steiner: about the common centre, I_own + m (|d|^2 1 - d d^T), d from the common centre to the own centre
  const steiner = (mass: number, p: V3): M3 => {
    const d = add(p, scale(-1, c));
    return [0, 1, 2].map((i) => [0, 1, 2].map((j) => mass * ((i === j ? d[0] ** 2 + d[1] ** 2 + d[2] ** 2 : 0) - d[i] * d[j]))) as M3;
  };
  const Ia = full(A.I),
    Sa = steiner(A.m, A.c),
    Sb = steiner(b.m, cb);
  const I = [0, 1, 2].map((i) => [0, 1, 2].map((j) => Ia[i][j] + Ib[i][j] + Sa[i][j] + Sb[i][j]));
  return { m, c, I: [I[0][0], I[1][1], I[2][2], I[0][1], I[0][2], I[1][2]] };
}

// (floating tree) => the joint tree with the same motion, and where each floating link's frame_b sits on it
export function cardanEquivalent(tree: FloatingTree): CardanEquivalent {
  const links: OracleLink[] = [],
    at: AttachedFrame[] = [];
  const none = { c: 0, q0: 0, d: 0 };
  tree.links.forEach((l, i) => {
    const from = attach({ tree: { links, gravity: tree.gravity }, at }, l.parent, l.E, l.o); // frame_a
    if ((l.joint === 'ball' || l.joint === 'free') && l.law && (l.law.c || l.law.d)) {
      throw new Error(`link ${i} (${l.joint}): a force law on a quaternion joint has no per-coordinate form in Cardan angles; pass it as tau`);
    }
    if (l.joint === 'fixed') {
      if (l.body && from.link >= 0) links[from.link] = { ...links[from.link], body: mergeBodies(links[from.link].body, l.body, from.E, from.o) };
      at.push(from);
      return;
    }
    const head = { parent: from.link, E: from.E, o: from.o };
    if (l.joint === 'free') {
      (
        [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ] as V3[]
      ).forEach((axis, k) => {
        links.push({ ...(k ? { parent: links.length - 1, E: identity(), o: [0, 0, 0] as V3 } : head), joint: 'prismatic', axes: [axis], law: none });
      });
      links.push({ parent: links.length - 1, E: identity(), o: [0, 0, 0], joint: 'spherical', axes: SPHERICAL_AXES, body: l.body, law: none });
    } else if (l.joint === 'ball') {
      links.push({ ...head, joint: 'spherical', axes: SPHERICAL_AXES, body: l.body, law: none });
    } else {
      links.push({ ...head, joint: l.joint, axes: l.joint === 'spherical' ? SPHERICAL_AXES : [...(l.axes ?? [])], body: l.body, law: l.law ?? none });
    }
    at.push({ link: links.length - 1, E: identity(), o: [0, 0, 0] });
  });
  return { tree: { links, gravity: tree.gravity }, at };
}

/** the Cardan angles of R = Rx(a1) Ry(a2) Rz(a3), a2 in [-pi/2, pi/2] */
export function cardanAngles(R: M3): V3 {
  return [Math.atan2(-R[1][2], R[2][2]), Math.atan2(R[0][2], Math.hypot(R[0][0], R[0][1])), Math.atan2(-R[0][1], R[0][0])];
}

const axesSeenFromB = (a: V3): [V3, V3, M3, M3] => {
  const Ryt = rotation([0, 1, 0], -a[1]),
    Rzt = rotation([0, 0, 1], -a[2]);
  return [mulMV(Rzt, mulMV(Ryt, [1, 0, 0])), mulMV(Rzt, [0, 1, 0]), Ryt, Rzt];
};

/** J(a): w (frame_b) = J da */
export function cardanJacobian(a: V3): M3 {
  const [c1, c2] = axesSeenFromB(a);
  return [
    [c1[0], c2[0], 0],
    [c1[1], c2[1], 0],
    [c1[2], c2[2], 1],
  ];
}

/** (dJ/dt) da, from d/dt (Rot(n, -a) u) = -da n x (Rot(n, -a) u) for fixed n and u */
export function cardanJdotTimes(a: V3, da: V3): V3 {
  const [c1, c2, Ryt, Rzt] = axesSeenFromB(a);
  const dc1 = add(scale(-da[2], cross([0, 0, 1], c1)), mulMV(Rzt, scale(-da[1], cross([0, 1, 0], mulMV(Ryt, [1, 0, 0])))));
  return add(scale(da[0], dc1), scale(da[1], scale(-da[2], cross([0, 0, 1], c2))));
}

function checkGimbal(a: V3, what: string): void {
  if (Math.abs(Math.cos(a[1])) < 1e-6) throw new Error(`${what}: Cardan angle a2 = ${a[1]} is at gimbal lock; turn the joint's frame_a to compare this state`);
}

// (floating tree, q, v, tau) => the same state and inputs in the joint tree's coordinates
export function toCardan(tree: FloatingTree, q: readonly number[], v: readonly number[], tau: readonly number[]): { q: number[]; v: number[]; tau: number[] } {
  const model = floatingModel(tree);
  const out = { q: [] as number[], v: [] as number[], tau: [] as number[] };
  tree.links.forEach((l, i) => {
    const { qi, vi, nv } = model.links[i];
    if (l.joint !== 'ball' && l.joint !== 'free') {
      (out.q.push(...q.slice(qi, qi + nv)), out.v.push(...v.slice(vi, vi + nv)), out.tau.push(...tau.slice(vi, vi + nv)));
      return;
    }
    const free = l.joint === 'free',
      qa = qi + (free ? 3 : 0),
      va = vi + (free ? 3 : 0);
    if (free) (out.q.push(...q.slice(qi, qi + 3)), out.v.push(...v.slice(vi, vi + 3)), out.tau.push(...tau.slice(vi, vi + 3)));
    const a = cardanAngles(quatMatrix(q.slice(qa, qa + 4) as Quat, `link ${i}: ${l.joint} joint Q`));
    checkGimbal(a, `link ${i} (${l.joint})`);
    const J = cardanJacobian(a);
    (out.q.push(...a), out.v.push(...solveDense(J, v.slice(va, va + 3))), out.tau.push(...mulMtV(J, tau.slice(va, va + 3) as V3)));
  });
  return out;
}

// (floating tree, joint tree q, qd, qdd) => the floating accelerations dv
export function fromCardanAccelerations(tree: FloatingTree, qc: readonly number[], vc: readonly number[], ddc: readonly number[]): number[] {
  const dv: number[] = [];
  let at = 0;
  for (const l of tree.links) {
    const n = { revolute: 1, prismatic: 1, universal: 2, spherical: 3, ball: 3, free: 6, fixed: 0 }[l.joint];
    if (l.joint === 'ball' || l.joint === 'free') {
      const c = at + (l.joint === 'free' ? 3 : 0);
      const a = qc.slice(c, c + 3) as V3,
        da = vc.slice(c, c + 3) as V3;
      if (l.joint === 'free') dv.push(...ddc.slice(at, at + 3));
      dv.push(...add(mulMV(cardanJacobian(a), ddc.slice(c, c + 3) as V3), cardanJdotTimes(a, da)));
    } else dv.push(...ddc.slice(at, at + n));
    at += n;
  }
  return dv;
}
