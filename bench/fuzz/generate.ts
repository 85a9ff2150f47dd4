// Seeded random mechanisms for the fuzzer: (seed) => MechanismSpec.
//
// Shapes: trees mixing all four joint types; single loops (planar: parallel
// revolutes closed by the planar revolute cut; spatial: closed by a
// spherical, universal or revolute cut); double loops (two cuts, the second
// loop hanging from the first one's links or from the world). Links have
// oblique axes, optional bars and fixed rotations, spring-dampers, and
// bodies that may be missing (massless links), point masses (I = 0, some at
// the joint's centre), or ordinary random bodies (rarely with masses of 1e6
// or 1e12 kg).
//
// Loops assemble at the start values by construction: all tree coordinates
// get random values, then the bar (and rotation) on the cut's frame_b side is
// chosen so that frame_b lands on frame_a with the relative rotation the cut
// joint allows. Every loop keeps mobility: its tree joints have more degrees
// of freedom than the cut has constraints.
import { prng } from '../../test/multibody/random-tree.ts';
import { type M3, type V3, cross, dot, mulMM, mulMtV, normalize, rotation } from '../../test/oracles/rnea.ts';
import { type JointType, expand, framePose, poses } from '../../test/oracles/joint-tree.ts';
import type { CutType } from '../../test/oracles/loops.ts';
import { fixedTransform, oracleSystem } from './describe.ts';
import type { BodySpec, CutSpec, LinkSpec, MechanismSpec, RotationSpec } from './spec.ts';

type Rnd = () => number;
const uniform = (rnd: Rnd, lo: number, hi: number) => lo + (hi - lo) * rnd();
const vector = (rnd: Rnd, lo: number, hi: number): V3 => [uniform(rnd, lo, hi), uniform(rnd, lo, hi), uniform(rnd, lo, hi)];
const pick = <T>(rnd: Rnd, items: readonly T[]): T => items[Math.floor(rnd() * items.length)];
const transpose = (R: M3): M3 => [[R[0][0], R[1][0], R[2][0]], [R[0][1], R[1][1], R[2][1]], [R[0][2], R[1][2], R[2][2]]];

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
  if (rnd() < 0.3) return pick(rnd, [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, -1]] as V3[]);
  return direction(rnd, 0.5, 2);
}

function randomRotation(rnd: Rnd): M3 {
  return rotation(direction(rnd), uniform(rnd, -Math.PI, Math.PI));
}

/** a valid inertia about the CoM (as test/multibody/random-tree.ts): principal moments from second moments, rotated */
function randomInertia(rnd: Rnd, m: number): BodySpec['I'] {
  const s = vector(rnd, 0.002, 0.05).map((x) => m * x);
  const P: M3 = [[s[1] + s[2], 0, 0], [0, s[0] + s[2], 0], [0, 0, s[0] + s[1]]];
  const Q = randomRotation(rnd);
  const I = mulMM(mulMM(Q, P), transpose(Q));
  return [I[0][0], I[1][1], I[2][2], (I[0][1] + I[1][0]) / 2, (I[0][2] + I[2][0]) / 2, (I[1][2] + I[2][1]) / 2];
}

/** a body, a point mass, or nothing (a massless link) */
function randomBody(rnd: Rnd): BodySpec | undefined {
  const u = rnd();
  if (u < 0.2) return undefined;
  const heavy = rnd() < 0.03 ? pick(rnd, [1e6, 1e12]) : 1;
  const m = heavy * uniform(rnd, 0.1, 3);
  if (u < 0.35) return { m, rcm: rnd() < 0.4 ? [0, 0, 0] : vector(rnd, -0.3, 0.3), I: [0, 0, 0, 0, 0, 0] };
  return { m, rcm: vector(rnd, -0.3, 0.3), I: randomInertia(rnd, m) };
}

const dofOf = (j: JointType) => (j === 'spherical' ? 3 : j === 'universal' ? 2 : 1);

function randomJoint(rnd: Rnd): JointType {
  const u = rnd();
  return u < 0.4 ? 'revolute' : u < 0.6 ? 'prismatic' : u < 0.8 ? 'spherical' : 'universal';
}

function randomAxes(rnd: Rnd, joint: JointType): V3[] {
  if (joint === 'spherical') return [];
  if (joint !== 'universal') return [axis(rnd)];
  if (rnd() < 0.5) return [[1, 0, 0], [0, 1, 0]];
  for (;;) {
    const n1 = axis(rnd), n2 = axis(rnd);
    if (Math.hypot(...cross(normalize(n1), normalize(n2))) > 0.3) return [n1, n2];
  }
}

/** start values; the spherical's middle angle away from +-90 deg (its Cardan singularity) */
function randomQ(rnd: Rnd, joint: JointType): number[] {
  if (joint === 'prismatic') return [uniform(rnd, -0.3, 0.3)];
  if (joint === 'spherical') return [uniform(rnd, -Math.PI, Math.PI), uniform(rnd, -1.2, 1.2), uniform(rnd, -Math.PI, Math.PI)];
  return Array.from({ length: dofOf(joint) }, () => uniform(rnd, -Math.PI, Math.PI));
}

interface LinkOptions {
  joint?: JointType;
  axes?: V3[];
  /** no fixed rotation before the joint (planar loops) */
  noRotation?: boolean;
}

function randomLink(rnd: Rnd, parent: number, o: LinkOptions = {}): LinkSpec {
  const joint = o.joint ?? randomJoint(rnd);
  const bar = rnd() < 0.8 ? vector(rnd, -0.5, 0.5) : undefined;
  const rot: RotationSpec | undefined = !o.noRotation && rnd() < 0.3 ? { axis: direction(rnd, 0.5, 2), angle: uniform(rnd, -Math.PI, Math.PI), r: rnd() < 0.5 ? vector(rnd, -0.3, 0.3) : [0, 0, 0] } : undefined;
  const oneDof = joint === 'revolute' || joint === 'prismatic';
  const spring = oneDof && rnd() < 0.2;
  return {
    parent, bar, rotation: rot, joint,
    axes: o.axes ?? randomAxes(rnd, joint),
    q: randomQ(rnd, joint),
    c: spring ? uniform(rnd, 0.5, 5) : 0,
    q0: spring ? uniform(rnd, -1, 1) : 0,
    d: rnd() < 0.2 ? uniform(rnd, 0.05, 1) : 0,
    body: randomBody(rnd),
  };
}

/** a chain of links from `from` (a link index or -1); returns the index of its last link (or `from` if empty) */
function addChain(rnd: Rnd, links: LinkSpec[], from: number, joints: readonly JointType[], o: LinkOptions = {}): number {
  let at = from;
  for (const joint of joints) {
    links.push(randomLink(rnd, at, { ...o, joint }));
    at = links.length - 1;
  }
  return at;
}

const CONSTRAINTS: Record<CutType, number> = { spherical: 3, universal: 4, revolute: 5, planar: 2 };

/** where a loop hangs: the world or a link that already exists */
const attachPoint = (rnd: Rnd, links: readonly LinkSpec[]) => (links.length === 0 || rnd() < 0.4 ? -1 : Math.floor(rnd() * links.length));

// (rnd, links, cut type) => the cut of a new loop whose two branches are added to links; side b is assembled later
function addLoop(rnd: Rnd, links: LinkSpec[], type: CutType, small = false): CutSpec {
  const law = type === 'revolute' || type === 'planar'
    ? { c: rnd() < 0.2 ? uniform(rnd, 0.5, 5) : 0, q0: uniform(rnd, -1, 1), d: rnd() < 0.2 ? uniform(rnd, 0.05, 1) : 0 }
    : { c: 0, q0: 0, d: 0 };
  if (type === 'planar') {
    // parallel revolutes, no fixed rotations, both branches from one frame: the loop moves in a plane
    const n = axis(rnd);
    const root = attachPoint(rnd, links);
    const [kA, kB] = pick(rnd, [[3, 0], [1, 2], [2, 1], [2, 2]]);
    const sameAxis = () => {
      const k = (rnd() < 0.5 ? -1 : 1) * uniform(rnd, 0.5, 2); // either sense, any length: still parallel
      return { axes: [n.map((x) => x * k) as V3], noRotation: true };
    };
    let a = root, b = root;
    for (let k = 0; k < kA; k++) a = addChain(rnd, links, a, ['revolute'], sameAxis());
    for (let k = 0; k < kB; k++) b = addChain(rnd, links, b, ['revolute'], sameAxis());
    return { type, a: { link: a, bar: vector(rnd, -0.5, 0.5) }, b: { link: b }, axes: [n], ...law };
  }
  const c = CONSTRAINTS[type];
  // branch joint types with more degrees of freedom than constraints, at most 4 more
  let joints: JointType[];
  do {
    joints = Array.from({ length: 2 + Math.floor(rnd() * (small ? 3 : 4)) }, () => randomJoint(rnd));
  } while (joints.reduce((s, j) => s + dofOf(j), 0) <= c || joints.reduce((s, j) => s + dofOf(j), 0) > c + (small ? 2 : 4));
  const split = Math.max(1, Math.floor(rnd() * joints.length));
  const a = addChain(rnd, links, attachPoint(rnd, links), joints.slice(0, split));
  const b = addChain(rnd, links, attachPoint(rnd, links), joints.slice(split));
  const axes = type === 'spherical' ? [] : type === 'universal' ? randomAxes(rnd, 'universal') : [axis(rnd)];
  const rotA = rnd() < 0.4 ? { axis: direction(rnd, 0.5, 2), angle: uniform(rnd, -Math.PI, Math.PI), r: [0, 0, 0] as V3 } : undefined;
  return { type, a: { link: a, bar: vector(rnd, -0.5, 0.5), rotation: rotA }, b: { link: b }, axes, ...law };
}

/** angle and unit axis of a rotation matrix, checked by rebuilding it */
export function axisAngle(R: M3): { axis: V3; angle: number } {
  const c = Math.min(1, Math.max(-1, (R[0][0] + R[1][1] + R[2][2] - 1) / 2));
  const angle = Math.acos(c);
  const skew: V3 = [R[2][1] - R[1][2], R[0][2] - R[2][0], R[1][0] - R[0][1]];
  let n: V3;
  if (angle < 1e-9) n = [1, 0, 0];
  else if (Math.sin(angle) > 1e-4) n = normalize(skew);
  else {
    // near pi: the column of (R + 1)/2 with the largest diagonal is along the axis
    const k = [0, 1, 2].reduce((b, i) => (R[i][i] > R[b][b] ? i : b), 0);
    n = normalize([R[0][k] + (k === 0 ? 1 : 0), R[1][k] + (k === 1 ? 1 : 0), R[2][k] + (k === 2 ? 1 : 0)]);
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
  const all = poses(x.rnea, spec.links.flatMap((l) => l.q));
  for (const cut of spec.cuts) {
    const A = framePose(x, all, { link: cut.a.link, ...fixedTransform(cut.a.bar, cut.a.rotation) });
    const P = framePose(x, all, { link: cut.b.link, ...fixedTransform(undefined, undefined) });
    const n = cut.axes.map(normalize);
    const Rrel = cut.type === 'spherical' ? randomRotation(rnd)
      : cut.type === 'universal' ? mulMM(rotation(n[0], uniform(rnd, -Math.PI, Math.PI)), rotation(n[1], uniform(rnd, -Math.PI, Math.PI)))
        : rotation(n[0], uniform(rnd, -Math.PI, Math.PI));
    const d = mulMtV(P.R, [A.r[0] - P.r[0], A.r[1] - P.r[1], A.r[2] - P.r[2]]);
    cut.b.bar = d;
    if (cut.type === 'planar') continue; // R_a^T R_b is already a rotation about n
    const fix = axisAngle(mulMM(transpose(P.R), mulMM(A.R, Rrel)));
    cut.b.rotation = { axis: fix.axis, angle: fix.angle, r: [0, 0, 0] };
  }
}

export interface GenerateOptions {
  /** small mechanisms (for npm test): trees of 1-3 links, no links besides the loops', short loops */
  small?: boolean;
}

// (seed) => a random mechanism that assembles at its start values
export function generate(seed: number, options: GenerateOptions = {}): MechanismSpec {
  const rnd = prng(seed);
  const links: LinkSpec[] = [];
  const cuts: CutSpec[] = [];
  const u = rnd();
  const loopType = (): CutType => pick(rnd, ['planar', 'planar', 'spherical', 'spherical', 'universal', 'revolute'] as CutType[]);
  let shape: string;
  if (u < 0.4) {
    const nb = 1 + Math.floor(rnd() * (options.small ? 3 : 6));
    for (let i = 0; i < nb; i++) links.push(randomLink(rnd, i === 0 || rnd() < 0.15 ? -1 : Math.floor(rnd() * i)));
    shape = 'tree';
  } else {
    const before = options.small ? 0 : Math.floor(rnd() * 3);
    for (let i = 0; i < before; i++) links.push(randomLink(rnd, i === 0 ? -1 : Math.floor(rnd() * (i + 1)) - 1));
    const types = [loopType(), ...(u < 0.8 ? [] : [loopType()])];
    for (const t of types) cuts.push(addLoop(rnd, links, t, options.small));
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
    const a = up(c.a.link), b = up(c.b.link);
    for (const i of a) if (!b.includes(i)) out.add(i);
    for (const i of b) if (!a.includes(i)) out.add(i);
  }
  return out;
}
