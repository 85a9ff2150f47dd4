// Seeded random mechanisms for the fuzzer: (seed) => MechanismSpec.
//
// Shapes: trees mixing all four joint types; single loops (planar: parallel
// revolutes closed by the planar revolute cut; spatial: closed by a
// spherical, universal or revolute cut); double loops (two cuts, the second
// loop hanging from the first one's links or from the world). Families
// (GenerateOptions.family): 'mixed', the shapes above; 'prismatic', loops
// closed at a prismatic joint: spatial (the five-constraint cut) and planar
// (parallel revolutes and in-plane sliders closed by the planar prismatic
// cut), single or with a second loop of any type. Links have
// oblique axes, optional bars and fixed rotations, spring-dampers, and
// bodies that may be missing (massless links), point masses (I = 0, some at
// the joint's centre), or ordinary random bodies (rarely with masses of 1e6
// or 1e12 kg).
//
// Loops assemble at the start values by construction: all tree coordinates
// get random values, then the bar (and rotation) on the cut's frame_b side is
// chosen so that frame_b lands on frame_a with the relative pose the cut
// joint allows (a planar prismatic cut, which may not carry a rotation on a
// planar loop, turns one of the loop's revolutes instead). The generator
// draws the loop's joints with more degrees of freedom than the cut has
// constraints; a second branch that hangs from a link of the first leaves
// fewer in the loop (fuzz seed 9000246 --small: 3 for a revolute cut's 5),
// which the builder refuses as over-constrained, a compile-error.
import { generateContact } from './contact-generate.ts';
import { prng } from '../../test/multibody/random-tree.ts';
import { generateSingular } from './singular.ts';
import { type M3, type V3, add, cross, dot, identity, mulMM, mulMtV, mulMV, normalize, rotation } from '../../test/oracles/rnea.ts';
import { type JointType, expand, framePose, poses } from '../../test/oracles/joint-tree.ts';
import { type CutType, isDrivenCut } from '../../test/oracles/loops.ts';
import { fixedTransform, oracleFrame, oracleStart, oracleSystem, velocityCount } from './describe.ts';
import type { BodySpec, CutSpec, LinkSpec, MechanismSpec, RotationSpec, SpecCut, SpecJoint } from './spec.ts';

type Rnd = () => number;
const uniform = (rnd: Rnd, lo: number, hi: number) => lo + (hi - lo) * rnd();
const vector = (rnd: Rnd, lo: number, hi: number): V3 => [uniform(rnd, lo, hi), uniform(rnd, lo, hi), uniform(rnd, lo, hi)];
const pick = <T>(rnd: Rnd, items: readonly T[]): T => items[Math.floor(rnd() * items.length)];
const transpose = (R: M3): M3 => [
  [R[0][0], R[1][0], R[2][0]],
  [R[0][1], R[1][1], R[2][1]],
  [R[0][2], R[1][2], R[2][2]],
];

/** a direction uniform on the sphere (by rejection), times a length in [lo, hi] (the library normalises axes) */
function direction(rnd: Rnd, lo = 1, hi = 1): V3 {
  for (;;) {
    const v = vector(rnd, -1, 1);
    const r = Math.hypot(...v);
    if (r > 0.1 && r <= 1) return normalize(v).map((x) => x * uniform(rnd, lo, hi)) as V3;
  }
}

/** an axis: oblique mostly, sometimes a coordinate axis (structural zeros in the generated code) */
function axis(rnd: Rnd): V3 {
  if (rnd() < 0.3)
    return pick(rnd, [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
      [0, 0, -1],
    ] as V3[]);
  return direction(rnd, 0.5, 2);
}

function randomRotation(rnd: Rnd): M3 {
  return rotation(direction(rnd), uniform(rnd, -Math.PI, Math.PI));
}

/** a valid inertia about the CoM (as test/multibody/random-tree.ts): principal moments from second moments, rotated */
function randomInertia(rnd: Rnd, m: number): BodySpec['I'] {
  const s = vector(rnd, 0.002, 0.05).map((x) => m * x);
  const P: M3 = [
    [s[1] + s[2], 0, 0],
    [0, s[0] + s[2], 0],
    [0, 0, s[0] + s[1]],
  ];
  const Q = randomRotation(rnd);
  const I = mulMM(mulMM(Q, P), transpose(Q));
  return [I[0][0], I[1][1], I[2][2], (I[0][1] + I[1][0]) / 2, (I[0][2] + I[2][0]) / 2, (I[1][2] + I[2][1]) / 2];
}

/** a body, a point mass, or nothing (a massless link); solid: always a body with an inertia (a floating root) */
function randomBody(rnd: Rnd, solid = false): BodySpec | undefined {
  const u = solid ? 1 : rnd();
  if (u < 0.2) return undefined;
  const heavy = rnd() < 0.03 ? pick(rnd, [1e6, 1e12]) : 1;
  const m = heavy * uniform(rnd, 0.1, 3);
  if (u < 0.35) return { m, rcm: rnd() < 0.4 ? [0, 0, 0] : vector(rnd, -0.3, 0.3), I: [0, 0, 0, 0, 0, 0] };
  return { m, rcm: vector(rnd, -0.3, 0.3), I: randomInertia(rnd, m) };
}

const dofOf = velocityCount;

function randomJoint(rnd: Rnd): JointType {
  const u = rnd();
  return u < 0.4 ? 'revolute' : u < 0.6 ? 'prismatic' : u < 0.8 ? 'spherical' : 'universal';
}

function randomAxes(rnd: Rnd, joint: SpecJoint): V3[] {
  if (joint === 'spherical' || joint === 'ball' || joint === 'free') return [];
  if (joint !== 'universal') return [axis(rnd)];
  if (rnd() < 0.5)
    return [
      [1, 0, 0],
      [0, 1, 0],
    ];
  for (;;) {
    const n1 = axis(rnd),
      n2 = axis(rnd);
    if (Math.hypot(...cross(normalize(n1), normalize(n2))) > 0.3) return [n1, n2];
  }
}

/** a unit quaternion uniform on the sphere S^3 (by rejection from the 4-ball) */
function randomQuaternion(rnd: Rnd): number[] {
  for (;;) {
    const v = [uniform(rnd, -1, 1), uniform(rnd, -1, 1), uniform(rnd, -1, 1), uniform(rnd, -1, 1)];
    const r = Math.hypot(...v);
    if (r > 0.1 && r <= 1) return v.map((x) => x / r);
  }
}

/** start values; the spherical's middle angle away from +-90 deg (its Cardan singularity); ball: Q; free: r, Q */
function randomQ(rnd: Rnd, joint: SpecJoint): number[] {
  if (joint === 'ball') return randomQuaternion(rnd);
  if (joint === 'free') return [...vector(rnd, -0.5, 0.5), ...randomQuaternion(rnd)];
  if (joint === 'prismatic') return [uniform(rnd, -0.3, 0.3)];
  if (joint === 'spherical') return [uniform(rnd, -Math.PI, Math.PI), uniform(rnd, -1.2, 1.2), uniform(rnd, -Math.PI, Math.PI)];
  return Array.from({ length: dofOf(joint) }, () => uniform(rnd, -Math.PI, Math.PI));
}

interface LinkOptions {
  joint?: SpecJoint;
  /** a body with an inertia, never massless nor a point mass (a floating root) */
  solid?: boolean;
  axes?: V3[];
  /** no fixed rotation before the joint (planar loops) */
  noRotation?: boolean;
}

function randomLink(rnd: Rnd, parent: number, o: LinkOptions = {}): LinkSpec {
  const joint = o.joint ?? randomJoint(rnd);
  const bar = rnd() < 0.8 ? vector(rnd, -0.5, 0.5) : undefined;
  const rot: RotationSpec | undefined =
    !o.noRotation && rnd() < 0.3
      ? { axis: direction(rnd, 0.5, 2), angle: uniform(rnd, -Math.PI, Math.PI), r: rnd() < 0.5 ? vector(rnd, -0.3, 0.3) : [0, 0, 0] }
      : undefined;
  const oneDof = joint === 'revolute' || joint === 'prismatic';
  const spring = oneDof && rnd() < 0.2;
  return {
    parent,
    bar,
    rotation: rot,
    joint,
    axes: o.axes ?? randomAxes(rnd, joint),
    q: randomQ(rnd, joint),
    c: spring ? uniform(rnd, 0.5, 5) : 0,
    q0: spring ? uniform(rnd, -1, 1) : 0,
    // the library's free joint has no damper
    d: rnd() < 0.2 && joint !== 'free' ? uniform(rnd, 0.05, 1) : 0,
    // a quaternion joint mostly carries a body with an inertia: a point mass or nothing on it is a
    // singular mass matrix (a turn that moves no mass), which the other joints test often enough
    body: randomBody(rnd, o.solid || ((joint === 'ball' || joint === 'free') && rnd() < 0.8)),
  };
}

/** a chain of links from `from` (a link index or -1); returns the index of its last link (or `from` if empty) */
function addChain(rnd: Rnd, links: LinkSpec[], from: number, joints: readonly SpecJoint[], o: LinkOptions = {}): number {
  let at = from;
  for (const joint of joints) {
    links.push(randomLink(rnd, at, { ...o, joint }));
    at = links.length - 1;
  }
  return at;
}

const CONSTRAINTS: Record<SpecCut, number> = { ball: 3, spherical: 3, universal: 4, revolute: 5, planar: 2, prismatic: 5, 'planar-prismatic': 2 };

/** a direction normal to the unit vector p (a slider's guide in planes normal to p), times a length in [0.5, 2] */
function inPlane(rnd: Rnd, p: V3): V3 {
  for (;;) {
    const v = direction(rnd);
    const w: V3 = [v[0] - dot(v, p) * p[0], v[1] - dot(v, p) * p[1], v[2] - dot(v, p) * p[2]];
    const k = uniform(rnd, 0.5, 2);
    if (Math.hypot(...w) > 0.1) return normalize(w).map((x) => x * k) as V3;
  }
}

/** where a loop hangs: the world or a link that already exists */
const attachPoint = (rnd: Rnd, links: readonly LinkSpec[]) => (links.length === 0 || rnd() < 0.4 ? -1 : Math.floor(rnd() * links.length));

/** a cut with a drive of its own (not a ball cut: it measures no coordinate) */
const drivenCut = (t: SpecCut) => t !== 'ball' && isDrivenCut(t);

/** what a family draws for a loop: its branches' joints and where they hang */
interface LoopDraws {
  joint: (rnd: Rnd) => SpecJoint;
  attach: (rnd: Rnd, links: readonly LinkSpec[]) => number;
}
const MIXED: LoopDraws = { joint: randomJoint, attach: attachPoint };

/**
 * (rnd, links, cut type) => the cut of a new loop whose two branches are added to links; side b is assembled later.
 * `apart`: branch b never hangs from branch a (which would take a's links out of the loop, leaving it
 * fewer degrees of freedom than drawn: the prismatic family; the mixed family keeps its draws)
 */
function addLoop(rnd: Rnd, links: LinkSpec[], type: SpecCut, small = false, apart = false, draws = MIXED): CutSpec {
  const law = drivenCut(type)
    ? { c: rnd() < 0.2 ? uniform(rnd, 0.5, 5) : 0, q0: uniform(rnd, -1, 1), d: rnd() < 0.2 ? uniform(rnd, 0.05, 1) : 0 }
    : { c: 0, q0: 0, d: 0 };
  if (type === 'planar-prismatic') return addPlanarSliderLoop(rnd, links, law);
  if (type === 'planar') {
    // parallel revolutes, no fixed rotations, both branches from one frame: the loop moves in a plane
    const n = axis(rnd);
    const root = draws.attach(rnd, links);
    const [kA, kB] = pick(rnd, [
      [3, 0],
      [1, 2],
      [2, 1],
      [2, 2],
    ]);
    const sameAxis = () => {
      const k = (rnd() < 0.5 ? -1 : 1) * uniform(rnd, 0.5, 2); // either sense, any length: still parallel
      return { axes: [n.map((x) => x * k) as V3], noRotation: true };
    };
    let a = root,
      b = root;
    for (let k = 0; k < kA; k++) a = addChain(rnd, links, a, ['revolute'], sameAxis());
    for (let k = 0; k < kB; k++) b = addChain(rnd, links, b, ['revolute'], sameAxis());
    return { type, a: { link: a, bar: vector(rnd, -0.5, 0.5) }, b: { link: b }, axes: [n], ...law };
  }
  const c = CONSTRAINTS[type];
  // branch joint types with more degrees of freedom than constraints; besides the quaternion joints at
  // least as many as constraints (a loop cannot determine a quaternion: the rest joints are among the
  // others) and at most 4 more (2 for small mechanisms)
  let joints: SpecJoint[];
  const dofs = (js: readonly SpecJoint[]) => js.reduce((s, j) => s + dofOf(j), 0);
  const others = (js: readonly SpecJoint[]) => dofs(js.filter((j) => j !== 'ball' && j !== 'free'));
  do {
    joints = Array.from({ length: 2 + Math.floor(rnd() * (small ? 3 : 4)) }, () => draws.joint(rnd));
  } while (dofs(joints) <= c || others(joints) < c || others(joints) > c + (small ? 2 : 4));
  const split = Math.max(1, Math.floor(rnd() * joints.length));
  const before = links.length;
  const a = addChain(rnd, links, draws.attach(rnd, links), joints.slice(0, split));
  const b = addChain(rnd, links, draws.attach(rnd, apart ? links.slice(0, before) : links), joints.slice(split));
  const axes = type === 'spherical' || type === 'ball' ? [] : type === 'universal' ? randomAxes(rnd, 'universal') : [axis(rnd)];
  const rotA = rnd() < 0.4 ? { axis: direction(rnd, 0.5, 2), angle: uniform(rnd, -Math.PI, Math.PI), r: [0, 0, 0] as V3 } : undefined;
  return { type, a: { link: a, bar: vector(rnd, -0.5, 0.5), rotation: rotA }, b: { link: b }, axes, ...law };
}

/**
 * A planar loop closed by a planar prismatic cut: revolutes about p (either
 * sense, any length) and, one time in four, sliders along the planes, in two
 * branches from one frame, no fixed rotations; at least one revolute (the
 * loop must turn for turnPlanarLoop to assemble it, and the builder reads p
 * off its revolutes). The cut's axes are [guide, p].
 */
function addPlanarSliderLoop(rnd: Rnd, links: LinkSpec[], law: { c: number; q0: number; d: number }): CutSpec {
  const p = normalize(axis(rnd));
  const root = attachPoint(rnd, links);
  const [kA, kB] = pick(rnd, [
    [3, 0],
    [1, 2],
    [2, 1],
    [2, 2],
  ]);
  const kinds: JointType[] = Array.from({ length: kA + kB }, () => (rnd() < 0.25 ? 'prismatic' : 'revolute'));
  if (!kinds.includes('revolute')) kinds[kA + kB - 1] = 'revolute';
  // either sense and any length along p: still parallel
  const along = (k: number): V3 => [p[0] * k, p[1] * k, p[2] * k];
  const options = (joint: JointType): LinkOptions => ({
    joint,
    noRotation: true,
    axes: [joint === 'revolute' ? along((rnd() < 0.5 ? -1 : 1) * uniform(rnd, 0.5, 2)) : inPlane(rnd, p)],
  });
  let a = root,
    b = root;
  kinds.forEach((joint, k) => {
    if (k < kA) a = addChain(rnd, links, a, [joint], options(joint));
    else b = addChain(rnd, links, b, [joint], options(joint));
  });
  return { type: 'planar-prismatic', a: { link: a, bar: vector(rnd, -0.5, 0.5) }, b: { link: b }, axes: [inPlane(rnd, p), p], ...law };
}

/**
 * Angle and unit axis of a rotation matrix, checked by rebuilding it.
 * R = cos t 1 + sin t [n]x + (1 - cos t) n n^T: the skew part gives sin t n,
 * the symmetric part (1 - cos t) n n^T. The angle is atan2(sin t, cos t),
 * accurate at every angle (acos of the trace loses half the digits near 0
 * and pi). The axis comes from the skew part up to 90 degrees and from the
 * symmetric part beyond, where sin t is small and the skew part's rounding
 * would dominate (fuzz seed 7001012: an angle 1e-4 from pi, whose axis taken
 * from a column of R + 1 kept the sin t term and rebuilt R only to 1.4e-5).
 */
export function axisAngle(R: M3): { axis: V3; angle: number } {
  const skew: V3 = [R[2][1] - R[1][2], R[0][2] - R[2][0], R[1][0] - R[0][1]];
  const s = Math.hypot(...skew) / 2,
    c = (R[0][0] + R[1][1] + R[2][2] - 1) / 2;
  const angle = Math.atan2(s, c);
  let n: V3;
  if (s === 0 && c > 0) n = [1, 0, 0];
  else if (c >= 0) n = normalize(skew);
  else {
    // (R + R^T)/2 - cos t 1 = (1 - cos t) n n^T: its column with the largest diagonal is along n
    const B = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (R[i][j] + R[j][i]) / 2 - (i === j ? c : 0)));
    const k = [0, 1, 2].reduce((b, i) => (B[i][i] > B[b][b] ? i : b), 0);
    n = normalize([B[0][k], B[1][k], B[2][k]]);
    if (dot(n, skew) < 0) n = [-n[0], -n[1], -n[2]];
  }
  const back = rotation(n, angle);
  const err = Math.max(...back.flatMap((row, i) => row.map((x, j) => Math.abs(x - R[i][j]))));
  if (err > 1e-9) throw new Error(`axisAngle: rebuilt rotation off by ${err}`);
  return { axis: n, angle };
}

// (spec with cut sides b open) => spec whose cuts close at the start values, in place
export function assembleInPlace(rnd: Rnd, spec: MechanismSpec): void {
  const x = expand(oracleSystem({ ...spec, cuts: [] }).tree);
  let all = poses(x.rnea, oracleStart(spec));
  for (const cut of spec.cuts) {
    const n = cut.axes.map(normalize);
    const sliding = cut.type === 'prismatic' || cut.type === 'planar-prismatic';
    // a prismatic cut: frame_b at a random slide s along the guide, turned as frame_a
    const Rrel =
      cut.type === 'spherical' || cut.type === 'ball'
        ? randomRotation(rnd)
        : cut.type === 'universal'
          ? mulMM(rotation(n[0], uniform(rnd, -Math.PI, Math.PI)), rotation(n[1], uniform(rnd, -Math.PI, Math.PI)))
          : sliding
            ? identity()
            : rotation(n[0], uniform(rnd, -Math.PI, Math.PI));
    const s = sliding ? uniform(rnd, -0.3, 0.3) : 0;
    if (cut.type === 'planar-prismatic') all = turnPlanarLoop(spec, cut, x, all);
    const fa = fixedTransform(cut.a.bar, cut.a.rotation);
    const A = framePose(x, all, oracleFrame(spec, cut.a.link, fa.E, fa.o));
    const P = framePose(x, all, oracleFrame(spec, cut.b.link, identity(), [0, 0, 0]));
    const target = sliding ? add(A.r, mulMV(A.R, n[0].map((v) => v * s) as V3)) : A.r;
    cut.b.bar = mulMtV(P.R, [target[0] - P.r[0], target[1] - P.r[1], target[2] - P.r[2]]);
    if (cut.type === 'planar' || cut.type === 'planar-prismatic') continue; // R_a^T R_b is already a rotation about n, or none
    const fix = axisAngle(mulMM(transpose(P.R), mulMM(A.R, Rrel)));
    cut.b.rotation = { axis: fix.axis, angle: fix.angle, r: [0, 0, 0] };
  }
}

/**
 * A planar loop closed by a prismatic cut: R_a^T R_b must be 1, where the
 * tree's random angles leave a turn theta about the planes' normal p. The
 * loop's newest revolute (a link of this loop's own branches, which no
 * earlier loop contains) turns by -theta on frame_b's side, +theta on
 * frame_a's, signed by its axis along p. (spec, cut, tree, poses) => the new
 * poses; the revolute's q changed in place.
 */
function turnPlanarLoop(spec: MechanismSpec, cut: CutSpec, x: ReturnType<typeof expand>, all: ReturnType<typeof poses>): ReturnType<typeof poses> {
  const p = normalize(cut.axes[1]);
  const turn = (at: typeof all) => {
    const A = framePose(x, at, { link: cut.a.link, ...fixedTransform(cut.a.bar, cut.a.rotation) });
    const P = framePose(x, at, { link: cut.b.link, ...fixedTransform(undefined, undefined) });
    const R = mulMM(transpose(A.R), P.R);
    return Math.atan2(dot(p, [R[2][1] - R[1][2], R[0][2] - R[2][0], R[1][0] - R[0][1]]) / 2, (R[0][0] + R[1][1] + R[2][2] - 1) / 2);
  };
  const side = (k: number) => {
    const out: number[] = [];
    for (let i = k; i >= 0; i = spec.links[i].parent) out.push(i);
    return out;
  };
  const [onA, onB] = [side(cut.a.link), side(cut.b.link)];
  const loop = [...onA.filter((i) => !onB.includes(i)), ...onB.filter((i) => !onA.includes(i))];
  const k = Math.max(...loop.filter((i) => spec.links[i].joint === 'revolute'));
  const link = spec.links[k];
  link.q[0] += (onB.includes(k) ? -1 : 1) * Math.sign(dot(link.axes[0], p)) * turn(all);
  const next = poses(
    x.rnea,
    spec.links.flatMap((l) => l.q),
  );
  const left = turn(next);
  if (!(Math.abs(left) < 1e-12)) throw new Error(`turnPlanarLoop: the loop of cut ${cut.a.link} -> ${cut.b.link} still turns by ${left} after j${k + 1}`);
  return next;
}

/** the kinds of mechanism generated (header) */
export const FAMILIES = ['mixed', 'prismatic', 'singular', 'floating', 'contact'] as const;
export type Family = (typeof FAMILIES)[number];

export interface GenerateOptions {
  /** small mechanisms (for npm test): trees of 1-3 links, no links besides the loops', short loops */
  small?: boolean;
  /** default 'mixed' */
  family?: Family;
}

// (seed) => a random mechanism that assembles at its start values
export function generate(seed: number, options: GenerateOptions = {}): MechanismSpec {
  if (options.family === 'singular') return generateSingular(seed);
  if (options.family === 'floating') return generateFloating(seed, options.small);
  if (options.family === 'contact') return { seed, shape: 'contact tree', gravity: [0, -9.81, 0], links: [], cuts: [], contact: generateContact(seed) };
  const rnd = prng(seed);
  const links: LinkSpec[] = [];
  const cuts: CutSpec[] = [];
  const u = rnd();
  const loopType = (): CutType => pick(rnd, ['planar', 'planar', 'spherical', 'spherical', 'universal', 'revolute'] as CutType[]);
  // the prismatic family: a loop closed at a slider first, then perhaps a loop of any type (the mixed family's draws unchanged)
  const prismatic = options.family === 'prismatic';
  const firstType = prismatic ? (): CutType => pick(rnd, ['prismatic', 'prismatic', 'planar-prismatic'] as CutType[]) : loopType;
  const otherType = prismatic
    ? (): CutType => pick(rnd, ['prismatic', 'planar-prismatic', 'planar', 'spherical', 'universal', 'revolute'] as CutType[])
    : loopType;
  let shape: string;
  if (u < 0.4 && !prismatic) {
    const nb = 1 + Math.floor(rnd() * (options.small ? 3 : 6));
    for (let i = 0; i < nb; i++) links.push(randomLink(rnd, i === 0 || rnd() < 0.15 ? -1 : Math.floor(rnd() * i)));
    shape = 'tree';
  } else {
    const before = options.small ? 0 : Math.floor(rnd() * 3);
    for (let i = 0; i < before; i++) links.push(randomLink(rnd, i === 0 ? -1 : Math.floor(rnd() * (i + 1)) - 1));
    const types = [firstType(), ...(u < 0.8 ? [] : [otherType()])];
    for (const t of types) cuts.push(addLoop(rnd, links, t, options.small, prismatic));
    if (!options.small && rnd() < 0.3) links.push(randomLink(rnd, Math.floor(rnd() * links.length)));
    shape = `${types.length === 1 ? 'loop' : 'double'}:${types.join('+')}`;
  }
  const gravity: V3 = rnd() < 0.6 ? [0, -9.80665, 0] : direction(rnd, 1, 15);
  const spec: MechanismSpec = { seed, shape, gravity, links, cuts };
  assembleInPlace(rnd, spec);
  return spec;
}

/** links on some loop (between the two sides of a cut): their coordinates are determined or constrained */
export function loopLinks(spec: MechanismSpec): Set<number> {
  const up = (k: number) => {
    const chain: number[] = [];
    for (let i = k; i >= 0; i = spec.links[i].parent) chain.push(i);
    return chain;
  };
  const out = new Set<number>();
  for (const c of spec.cuts) {
    const a = up(c.a.link),
      b = up(c.b.link);
    for (const i of a) if (!b.includes(i)) out.add(i);
    for (const i of b) if (!a.includes(i)) out.add(i);
  }
  return out;
}

/** a joint of the floating family below a free root: quaternion balls most often, every other type, and (in trees) another free joint */
function floatingJoint(rnd: Rnd, free: boolean): SpecJoint {
  const u = rnd();
  return u < 0.3 ? 'ball' : u < 0.5 ? 'revolute' : u < 0.65 ? 'prismatic' : u < 0.8 ? 'universal' : u < 0.95 || !free ? 'spherical' : 'free';
}

/** a loop's branch hangs from a link that exists (the free root or a link below it), one time in ten from the world */
const FLOATING: LoopDraws = {
  joint: (rnd) => floatingJoint(rnd, false),
  attach: (rnd, links) => (rnd() < 0.1 ? -1 : Math.floor(rnd() * links.length)),
};

/**
 * The floating family: a free root (a body with an inertia) hanging from the
 * world, one time in seven a second one; below them either a tree (ball,
 * revolute, prismatic, universal and Cardan spherical joints, one time in
 * twenty another free joint mid-tree, one link in ten from the world: a
 * fixed base) or one or two loops between branches hanging from the roots'
 * links, closed at a planar, spherical, ball, universal or revolute cut (a
 * branch from the world, one time in ten, puts the free joint on the loop;
 * the branches' other joints can close it: at least as many coordinates as
 * the cut has constraints). Gravity is off one time in three.
 */
function generateFloating(seed: number, small = false): MechanismSpec {
  const rnd = prng(seed);
  const links: LinkSpec[] = [randomLink(rnd, -1, { joint: 'free', solid: true })];
  if (rnd() < 1 / 7) links.push(randomLink(rnd, -1, { joint: 'free', solid: true }));
  const cuts: CutSpec[] = [];
  const u = rnd();
  let shape: string;
  if (u < 0.45) {
    const nb = 1 + Math.floor(rnd() * (small ? 3 : 6));
    // one link in ten hangs from the world: ball joints (and the others) on a fixed base too
    for (let i = 0; i < nb; i++) links.push(randomLink(rnd, rnd() < 0.1 ? -1 : Math.floor(rnd() * links.length), { joint: floatingJoint(rnd, true) }));
    shape = 'floating tree';
  } else {
    const cutType = (): SpecCut => pick(rnd, ['planar', 'spherical', 'ball', 'ball', 'universal', 'revolute'] as SpecCut[]);
    const types = [cutType(), ...(u < 0.85 ? [] : [cutType()])];
    for (const t of types) cuts.push(addLoop(rnd, links, t, small, true, FLOATING));
    shape = `floating ${types.length === 1 ? 'loop' : 'double'}:${types.join('+')}`;
  }
  const gravity: V3 = rnd() < 1 / 3 ? [0, 0, 0] : rnd() < 0.5 ? [0, 0, -9.80665] : direction(rnd, 1, 15);
  const spec: MechanismSpec = { seed, shape, gravity, links, cuts };
  assembleInPlace(rnd, spec);
  return spec;
}
