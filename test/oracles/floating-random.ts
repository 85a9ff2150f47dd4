// Random floating trees and states, mainly for testing (after Featherstone's
// autoTree): seeded, plain data in floating-tree.ts's description.
//
// Link 0 is a free joint to the world; every later link hangs from a random
// earlier one through a random fixed transform, with a joint drawn from the
// given types. Bodies have random masses, centres of mass and inertias (from
// positive second moments, so the triangle inequality holds, then turned by
// a random rotation). A link is massless only when it is a revolute or
// prismatic joint with children none of which is free: a massless leaf, a
// massless ball or free joint, or a free joint after a massless link leaves a
// direction that moves no mass of its own (a singular mass matrix).
import { type M3, type V3, identity, mulMM } from './rnea.ts';
import type { OracleBody } from './joint-tree.ts';
import type { FloatingJointType, FloatingLink, FloatingModel, FloatingTree } from './floating-tree.ts';
import { type Quat, quatMatrix, quatNormalize } from './quaternion.ts';

export type Random = () => number;

/** Park-Miller minimal standard generator, uniform on (0, 1) */
export function prng(seed: number): Random {
  let s = (seed % 2147483646) + 1;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

const between = (rand: Random, a: number, b: number) => a + (b - a) * rand();
const vec = (rand: Random, r: number): V3 => [between(rand, -r, r), between(rand, -r, r), between(rand, -r, r)];

/** a random unit quaternion (uniform enough for tests: a normalised point of the 4-cube) */
export function randomQuat(rand: Random): Quat {
  return quatNormalize([between(rand, -1, 1), between(rand, -1, 1), between(rand, -1, 1), between(rand, -1, 1)]);
}

export const randomRotation = (rand: Random): M3 => quatMatrix(randomQuat(rand));

/** a body with mass in [0.5, 3], centre of mass within 0.2 of the frame origin, a valid inertia */
export function randomBody(rand: Random): OracleBody {
  const m = between(rand, 0.5, 3);
  // second moments of the mass about the principal axes; I_xx = s_y + s_z etc. satisfies the triangle inequality
  const s = [0, 1, 2].map(() => m * between(rand, 0.002, 0.05));
  const R = randomRotation(rand);
  const D: M3 = [
    [s[1] + s[2], 0, 0],
    [0, s[0] + s[2], 0],
    [0, 0, s[0] + s[1]],
  ];
  const I = mulMM(mulMM(R, D), [
    [R[0][0], R[1][0], R[2][0]],
    [R[0][1], R[1][1], R[2][1]],
    [R[0][2], R[1][2], R[2][2]],
  ]);
  return { m, c: vec(rand, 0.2), I: [I[0][0], I[1][1], I[2][2], I[0][1], I[0][2], I[1][2]] };
}

const AXES_OF: Partial<Record<FloatingJointType, number>> = { revolute: 1, prismatic: 1, universal: 2 };

export interface RandomTreeOptions {
  /** joint types of the links after the root, drawn uniformly */
  joints?: readonly FloatingJointType[];
  gravity?: V3;
}

export const ALL_JOINTS: readonly FloatingJointType[] = ['revolute', 'prismatic', 'ball', 'universal', 'spherical', 'free', 'fixed'];

// (rand, number of links) => a tree with a free root and random links after it
export function randomFloatingTree(rand: Random, nb: number, options: RandomTreeOptions = {}): FloatingTree {
  const joints = options.joints ?? ALL_JOINTS;
  const parents = Array.from({ length: nb }, (_, i) => (i === 0 ? -1 : Math.floor(rand() * i)));
  const types = parents.map((_, i): FloatingJointType => (i === 0 ? 'free' : joints[Math.floor(rand() * joints.length)]));
  const links = parents.map((parent, i): FloatingLink => {
    const joint = types[i];
    const E = rand() < 0.5 ? randomRotation(rand) : identity();
    const axes = Array.from({ length: AXES_OF[joint] ?? 0 }, () => vec(rand, 1));
    // a free child would take over all of a massless link's motion: a coordinate that moves no mass of its own
    const children = types.filter((_, k) => parents[k] === i);
    const massless = children.length > 0 && !children.includes('free') && (joint === 'revolute' || joint === 'prismatic') && rand() < 0.2;
    return { parent, E, o: i === 0 ? [0, 0, 0] : vec(rand, 0.5), joint, axes, body: massless ? undefined : randomBody(rand) };
  });
  return { links, gravity: options.gravity ?? [0, 0, -9.81] };
}

// (rand, model) => a state and inputs: angles and lengths in [-1, 1], unit quaternions, rates and forces in [-r, r]
export function randomState(rand: Random, model: FloatingModel, r = 1): { q: number[]; v: number[]; tau: number[] } {
  const q = new Array<number>(model.nq).fill(0);
  for (const b of model.bodies) {
    if (b.kind === 'revolute' || b.kind === 'prismatic') q[b.qi] = between(rand, -1, 1);
    if (b.kind === 'free') vec(rand, 1).forEach((x, k) => (q[b.qi + k] = x));
    if (b.kind === 'free' || b.kind === 'ball') randomQuat(rand).forEach((x, k) => (q[b.qi + (b.kind === 'free' ? 3 : 0) + k] = x));
  }
  const v = Array.from({ length: model.nv }, () => between(rand, -r, r));
  const tau = Array.from({ length: model.nv }, () => between(rand, -r, r));
  return { q, v, tau };
}

/** the relative difference of two vectors: max |a - b| / max(|a|, |b|, floor) */
export function relDiff(a: readonly number[], b: readonly number[], floor = 1): number {
  let d = 0,
    s = floor;
  a.forEach((x, i) => ((d = Math.max(d, Math.abs(x - b[i]))), (s = Math.max(s, Math.abs(x), Math.abs(b[i])))));
  return d / s;
}
