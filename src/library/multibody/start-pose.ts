// The mechanism at its start values, in plain numbers, for the builder's
// choice of the joints a kinematic loop determines (topology.ts): every
// frame's pose from the world out over connections, bars, fixed rotations
// and the spanning tree's joints at their start coordinates, and the columns
// of a cut joint's position constraints per coordinate of the loop's tree
// joints (central differences). The rest joints' columns must have full
// rank, or Newton cannot close the loop at any position (three angles of a
// ball joint next to a ball-joint cut move the cut point on a sphere only).
import type { Component } from '../../model/index.ts';
import { FixedRotation } from './fixed-rotation.ts';
import { FixedTranslation } from './fixed-translation.ts';
import { Frame } from './frame.ts';
import type { Joint } from './joint.ts';

export type M3 = number[][];

/** a frame's orientation (frame to world coordinates) and origin */
export interface Pose {
  R: M3;
  p: number[];
}

/** Rodrigues: rotation by angle q about the unit axis n */
export function rotationMatrix(n: readonly number[], q: number): M3 {
  const [x, y, z] = n,
    c = Math.cos(q),
    s = Math.sin(q),
    C = 1 - c;
  return [
    [c + x * x * C, x * y * C - z * s, x * z * C + y * s],
    [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
    [z * x * C - y * s, z * y * C + x * s, c + z * z * C],
  ];
}

export const multiply = (A: M3, B: M3): M3 => A.map((row) => [0, 1, 2].map((j) => row[0] * B[0][j] + row[1] * B[1][j] + row[2] * B[2][j]));
export const apply = (A: M3, v: readonly number[]): number[] => A.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]);
export const dot3 = (a: readonly number[], b: readonly number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const difference = (a: readonly number[], b: readonly number[]): number[] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const transposed = (A: M3): M3 => [0, 1, 2].map((i) => [A[0][i], A[1][i], A[2][i]]);

/** frame_b's pose relative to frame_a of an element, at given coordinates */
type Link = { a: Frame; b: Frame; relative: () => { R: M3; p: number[] } };

/**
 * Every frame's pose with the tree joints at coordinates q (start values unless
 * given); undefined when a rigid element's offset is not known here (a user's
 * own component), and the builder keeps its structural rule.
 */
export function startPoses(
  components: readonly Component[],
  world: Frame,
  treeJoints: readonly Joint[],
  q: ReadonlyMap<Joint, readonly number[]> = new Map(),
): Map<Frame, Pose> | undefined {
  const links: Link[] = [];
  const identity = {
    R: [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    p: [0, 0, 0],
  };
  const joints = new Set<Component>(treeJoints);
  for (const c of components) {
    for (const [x, y] of c.connections) {
      if (x.owner instanceof Frame && y.owner instanceof Frame) links.push({ a: x.owner, b: y.owner, relative: () => identity });
    }
    if (c instanceof FixedTranslation) links.push({ a: c.frame_a, b: c.frame_b, relative: () => ({ R: identity.R, p: [...c.r] }) });
    else if (c instanceof FixedRotation) links.push({ a: c.frame_a, b: c.frame_b, relative: () => ({ R: rotationMatrix(c.axis, c.angle), p: [...c.r] }) });
    else if (joints.has(c)) {
      const j = c as Joint;
      links.push({ a: j.frame_a, b: j.frame_b, relative: () => j.relativePose(q.get(j) ?? j.startCoordinates()) });
    } else if (!(c instanceof Frame) && !isJoint(c) && c.equations.length > 0 && c.children.filter((k) => k instanceof Frame).length > 1) {
      return undefined; // a rigid element of two frames whose offset this module does not know
    }
  }
  const byFrame = new Map<Frame, Link[]>();
  for (const l of links) for (const f of [l.a, l.b]) byFrame.set(f, [...(byFrame.get(f) ?? []), l]);
  const poses = new Map<Frame, Pose>([[world, { R: identity.R, p: [0, 0, 0] }]]);
  const queue = [world];
  for (let k = 0; k < queue.length; k++) {
    const f = queue[k],
      at = poses.get(f)!;
    for (const l of byFrame.get(f) ?? []) {
      const other = l.a === f ? l.b : l.a;
      if (poses.has(other)) continue;
      const { R, p } = l.relative();
      if (l.a === f) {
        poses.set(other, { R: multiply(at.R, R), p: at.p.map((v, i) => v + apply(at.R, p)[i]) });
      } else {
        const Ra = multiply(at.R, transposed(R));
        poses.set(other, { R: Ra, p: at.p.map((v, i) => v - apply(Ra, p)[i]) });
      }
      queue.push(other);
    }
  }
  return poses;
}

/** a joint (its own frames carry coordinates): told apart without importing the class, which imports this module */
const isJoint = (c: Component): boolean => typeof (c as Partial<Joint>).relativePose === 'function';

/**
 * The columns of the cuts' position constraints (stacked in their order)
 * with respect to each coordinate of the candidate joints, at the start pose,
 * by central differences; undefined when the pose cannot be computed.
 */
export function loopColumns(
  components: readonly Component[],
  world: Frame,
  treeJoints: readonly Joint[],
  cuts: readonly Joint[],
  candidates: readonly Joint[],
): Map<Joint, number[][]> | undefined {
  const residual = (q: ReadonlyMap<Joint, readonly number[]>) => {
    const poses = startPoses(components, world, treeJoints, q);
    const rows: number[] = [];
    for (const cut of cuts) {
      const a = poses?.get(cut.frame_a),
        b = poses?.get(cut.frame_b);
      if (!a || !b) return undefined;
      rows.push(...cut.cutResidual(a, b));
    }
    return rows;
  };
  if (!residual(new Map())) return undefined;
  const h = 1e-6;
  const out = new Map<Joint, number[][]>();
  for (const j of candidates) {
    const q0 = j.startCoordinates();
    out.set(
      j,
      q0.map((_, k) => {
        const at = (d: number) => residual(new Map([[j, q0.map((v, i) => (i === k ? v + d : v))]]))!;
        const [plus, minus] = [at(h), at(-h)];
        return plus.map((v, i) => (v - minus[i]) / (2 * h));
      }),
    );
  }
  return out;
}

/**
 * Greedy rank: does each column of `add`, projected off the basis so far,
 * keep more than 1e-6 of the largest column? Then they join the basis.
 */
export function addsFullRank(basis: number[][], add: readonly number[][], scale: number): boolean {
  const next = basis.map((b) => [...b]);
  for (const c of add) {
    const v = [...c];
    for (const b of next) {
      const d = v.reduce((s, x, i) => s + x * b[i], 0);
      v.forEach((_, i) => (v[i] -= d * b[i]));
    }
    const norm = Math.hypot(...v);
    if (!(norm > 1e-6 * scale)) return false;
    next.push(v.map((x) => x / norm));
  }
  basis.splice(0, basis.length, ...next);
  return true;
}
