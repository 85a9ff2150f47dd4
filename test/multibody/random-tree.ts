// Random trees of rigid bodies, mainly for testing (after Featherstone's
// autoTree): (seed, nb) => a Kron Mechanism and the RNEA oracle's description
// of the same tree, both built from one list of random parameters.
//
// Body i (0-based; components o<i+1>, r<i+1>, j<i+1>, b<i+1>) hangs from the
// world or from the frame_b of an earlier joint (parent(i) < i):
//   parent frame -> [bar o<k>] -> [rotation r<k>] -> joint j<k> -> body b<k>
// The body's frame_a sits on the joint's frame_b, the body frame of the oracle.
import { Mechanism } from '../../src/library/multibody/index.ts';
import type { Frame } from '../../src/library/multibody/index.ts';
import { type M3, type RneaBody, type RneaTree, type V3, add, identity, mulMM, mulMV, normalize, rotation } from '../oracles/rnea.ts';

/** one body's random parameters: the single source of truth for both models */
export interface TreeBody {
  parent: number;
  /** FixedTranslation before the joint (frame_a coordinates), if any */
  bar?: V3;
  /** FixedRotation after the bar, if any */
  rotation?: { axis: V3; angle: number; r: V3 };
  joint: 'revolute' | 'prismatic';
  /** as given to the library: not normalised */
  axis: V3;
  /** optional spring-damper on the joint coordinate */
  c: number;
  q0: number;
  d: number;
  m: number;
  rcm: V3;
  I: [number, number, number, number, number, number];
}

export interface RandomTree {
  seed: number;
  bodies: TreeBody[];
  gravity: V3;
  mechanism: Mechanism;
  oracle: RneaTree;
  /** joint names in body order: j1, j2, ... */
  joints: string[];
}

/** a random rotation matrix: the quaternion of four normal-ish numbers, normalised */
export function quaternionRotation(u: () => number): number[][] {
  const q = [0, 0, 0, 0].map(() => u() + u() + u() - 1.5);
  const n = Math.hypot(...q);
  const [w, x, y, z] = q.map((v) => v / n);
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
}

/** mulberry32: a small seeded generator of uniform numbers in [0, 1) */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const uniform = (rnd: () => number, lo: number, hi: number) => lo + (hi - lo) * rnd();
const vector = (rnd: () => number, lo: number, hi: number): V3 => [uniform(rnd, lo, hi), uniform(rnd, lo, hi), uniform(rnd, lo, hi)];

/** a direction, uniform on the sphere (by rejection), times a length in [lo, hi] */
function direction(rnd: () => number, lo = 1, hi = 1): V3 {
  for (;;) {
    const v = vector(rnd, -1, 1);
    const r = Math.hypot(...v);
    if (r > 0.1 && r <= 1) return normalize(v).map((x) => x * uniform(rnd, lo, hi)) as V3;
  }
}

/** a random rotation: uniform axis, uniform angle (not Haar-uniform; enough for tests) */
function randomRotation(rnd: () => number): M3 {
  const n = direction(rnd);
  return rotation(n, uniform(rnd, -Math.PI, Math.PI));
}

/**
 * A physically valid inertia about the CoM: principal moments from second
 * moments s_k >= 0 of a mass distribution (Ixx = s_y + s_z, ...: the triangle
 * inequality holds), rotated by a random rotation Q: I = Q diag Q^T.
 */
function randomInertia(rnd: () => number, m: number): TreeBody['I'] {
  const s = vector(rnd, 0.002, 0.05).map((x) => m * x);
  const P: M3 = [
    [s[1] + s[2], 0, 0],
    [0, s[0] + s[2], 0],
    [0, 0, s[0] + s[1]],
  ];
  const Q = randomRotation(rnd);
  const Qt: M3 = [
    [Q[0][0], Q[1][0], Q[2][0]],
    [Q[0][1], Q[1][1], Q[2][1]],
    [Q[0][2], Q[1][2], Q[2][2]],
  ];
  const I = mulMM(mulMM(Q, P), Qt);
  return [I[0][0], I[1][1], I[2][2], (I[0][1] + I[1][0]) / 2, (I[0][2] + I[2][0]) / 2, (I[1][2] + I[2][1]) / 2];
}

// (rnd, i) => body i's random parameters, hanging from the world or a body < i
function randomBody(rnd: () => number, i: number): TreeBody {
  const parent = i === 0 || rnd() < 0.1 ? -1 : Math.floor(rnd() * i); // the world, or a body 0 .. i - 1
  const bar = rnd() < 0.85 ? vector(rnd, -0.5, 0.5) : undefined;
  const rot =
    rnd() < 0.35
      ? { axis: direction(rnd, 0.5, 2), angle: uniform(rnd, -Math.PI, Math.PI), r: rnd() < 0.5 ? vector(rnd, -0.3, 0.3) : ([0, 0, 0] as V3) }
      : undefined;
  const joint = rnd() < 0.75 ? 'revolute' : 'prismatic';
  const axis = direction(rnd, 0.5, 2);
  const spring = rnd() < 0.2;
  const c = spring ? uniform(rnd, 0.5, 5) : 0;
  const q0 = spring ? uniform(rnd, -1, 1) : 0;
  const d = rnd() < 0.2 ? uniform(rnd, 0.05, 1) : 0;
  const m = uniform(rnd, 0.1, 3);
  return { parent, bar, rotation: rot, joint, axis, c, q0, d, m, rcm: vector(rnd, -0.3, 0.3), I: randomInertia(rnd, m) };
}

// (seed, nb) => the random tree as a Mechanism and as the oracle's description
export function randomTree(seed: number, nb: number): RandomTree {
  const rnd = prng(seed);
  const bodies = Array.from({ length: nb }, (_, i) => randomBody(rnd, i));
  const gravity: V3 = rnd() < 0.7 ? [0, -9.80665, 0] : direction(rnd, 1, 15);
  return {
    seed,
    bodies,
    gravity,
    mechanism: buildMechanism(seed, bodies, gravity),
    oracle: describe(bodies, gravity),
    joints: bodies.map((_, i) => `j${i + 1}`),
  };
}

// (bodies, gravity) => the Mechanism, with the builder
function buildMechanism(seed: number, bodies: readonly TreeBody[], gravity: V3): Mechanism {
  const mech = new Mechanism(`tree${seed}`, { gravity });
  const frames: Frame[] = [];
  bodies.forEach((b, i) => {
    const k = i + 1;
    let at = b.parent < 0 ? mech.world.frame_b : frames[b.parent];
    if (b.bar) {
      const bar = mech.bar(`o${k}`, { r: b.bar });
      mech.connect(at, bar.frame_a);
      at = bar.frame_b;
    }
    if (b.rotation) {
      const rot = mech.rotation(`r${k}`, b.rotation);
      mech.connect(at, rot.frame_a);
      at = rot.frame_b;
    }
    const options = { axis: b.axis, c: b.c, q0: b.q0, d: b.d };
    const joint = b.joint === 'revolute' ? mech.revolute(`j${k}`, options) : mech.prismatic(`j${k}`, options);
    const body = mech.body(`b${k}`, { m: b.m, rcm: b.rcm, I: b.I });
    mech.connect(at, joint.frame_a);
    mech.connect(joint.frame_b, body.frame_a);
    frames.push(joint.frame_b);
  });
  return mech;
}

// (bodies, gravity) => the oracle's tree: bar then rotation composed into one fixed transform
function describe(bodies: readonly TreeBody[], gravity: V3): RneaTree {
  const rneaBodies = bodies.map((b): RneaBody => {
    let E = identity();
    let o: V3 = b.bar ?? [0, 0, 0];
    if (b.rotation) {
      o = add(o, mulMV(E, b.rotation.r));
      E = mulMM(E, rotation(normalize(b.rotation.axis), b.rotation.angle));
    }
    return { parent: b.parent, joint: b.joint, axis: b.axis, E, o, m: b.m, c: b.rcm, I: b.I };
  });
  return { bodies: rneaBodies, gravity };
}
