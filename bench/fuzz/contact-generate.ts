// The fuzzer's contact family (--family contact): random trees dropped on a
// plane. Plain data (ContactTree), built into a Mechanism by buildContact.
//   root   a free body with a sphere, capsule, box, cylinder or convex hull as its collision geometry
//          (solid inertia of that shape), started above the ground at a random
//          orientation and velocity (v up to 1 m/s, w up to 3 rad/s);
//   links  1 to 4 revolute links below it, a tree (each hangs from the root,
//          70 degrees or more from the root's other links, or from the far end
//          of an earlier link's segment, one link per joint), each a segment of
//          half-length L from its joint along a direction within about 40
//          degrees of its parent's (so that the tree spreads outwards and no
//          two bodies overlap at the start: the filter lets any two that are
//          not parent and child touch), with a sphere, capsule, box, cylinder or hull
//          along the segment's middle; random axes, angles (|q| < 0.4 rad),
//          rates (|qd| < 2 rad/s) and joint dampers (one link in two);
//   tips   a sphere at the far end of one leaf link in two: a second
//          geometry on its body (drawn after everything above, so a seed's
//          tree is the same as before but for its tips and bits);
//   bits   each geometry's contype and conaffinity drawn from 1, 2, 3: two
//          geometries of the tree touch when the bits meet (not parent and
//          child, not one body); the ground is 3 and 3, so every geometry
//          touches it;
//   ground the plane y = 0 (gravity -y), no parameters of its own;
//   law    per case the linear law (one case in four Hunt-Crossley, n = 1.5)
//          with random stiffness, damping and friction per geometry, and a
//          slip speed of 1e-3 or 1e-2 m/s. Stiffness: a static penetration of
//          1e-4 to 1e-3 m under the body's own weight (Hunt-Crossley: the same
//          force at 5e-4 m); damping up to critical (linear), or Hunt and
//          Crossley's c = 3/2 alpha k with alpha up to 0.5 s/m (their
//          restitution e ~ 1 - alpha v: from elastic to a dead stop at 2 m/s).
//   friction per case the regularised law or (one case in two) the
//          elasto-plastic one (contact/elasto-plastic.ts), drawn after the
//          tips and bits, so a seed's tree is the same as before but for it.
// The root starts high enough that nothing touches the ground, and falls onto
// it within 0.6 s.
import { Mechanism } from '../../src/index.ts';
import type { Collider } from '../../src/contact/collider.ts';
import { zOnto } from '../../src/contact/collider.ts';
import type { ContactMaterial } from '../../src/contact/material.ts';
import type { FrictionLaw } from '../../src/contact/law.ts';
import { type CollisionShape, boundingRadius } from '../../src/contact/shapes.ts';
import { prng } from '../../test/multibody/random-tree.ts';

type V3 = [number, number, number];

export interface ContactLink {
  /** index of the parent link, -1: the root */
  parent: number;
  /** the joint's position in the parent's body frame */
  at: V3;
  axis: V3;
  q: number;
  qd: number;
  d: number;
  /** the segment's unit direction (body frame at q = 0) and half-length: centre of mass and geometry at L u */
  u: V3;
  L: number;
  m: number;
  shape: CollisionShape;
  material: ContactMaterial;
  /** a sphere at the segment's far end (2 L u), or none */
  tip?: { radius: number; bits: Bits };
  bits: Bits;
}

/** a geometry's contype and conaffinity (filter.ts) */
export interface Bits {
  contype: number;
  conaffinity: number;
}

/** the ground's bits: it touches every geometry of the tree */
export const GROUND_BITS: Bits = { contype: 3, conaffinity: 3 };

export interface ContactTree {
  root: { m: number; shape: CollisionShape; material: ContactMaterial; r: V3; Q: [number, number, number, number]; v: V3; w: V3; bits: Bits };
  links: ContactLink[];
  slipSpeed: number;
  /** the law of every geometry (a pair may not mix laws) */
  law: 'linear' | 'hunt-crossley';
  /** the friction law of the scene (absent in cases stored before it was drawn: regularised) */
  friction?: FrictionLaw;
  /** the run's end (s) */
  stop: number;
}

const G = 9.81;
const unit = (v: readonly number[]): V3 => {
  const n = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / n, v[1] / n, v[2] / n];
};

// (seed) => a random tree over the ground
export function generateContact(seed: number): ContactTree {
  const rnd = prng(seed);
  const between = (a: number, b: number) => a + (b - a) * rnd();
  const sphereDir = (): V3 => unit([rnd() - 0.5, rnd() - 0.5, rnd() - 0.5].map((x) => x + 1e-9));
  const law = rnd() < 0.25 ? 'hunt-crossley' : 'linear';
  const material = (m: number): ContactMaterial => {
    // a static penetration of about 1e-4 to 1e-3 m under the body's own weight; damping up to critical
    const k = (m * G) / between(1e-4, 1e-3);
    const c = between(0, 2) * Math.sqrt(k * m);
    return law === 'linear'
      ? { stiffness: k, damping: c, friction: between(0.2, 1.2) }
      : { law, stiffness: k / Math.sqrt(5e-4), damping: 1.5 * between(0, 0.5) * (k / Math.sqrt(5e-4)), friction: between(0.2, 1.2) };
  };
  const rootShape = pickShape(rnd, between(0.08, 0.15), between(0.05, 0.2));
  const rootMass = between(0.5, 3);
  const links: ContactLink[] = [];
  const nl = 1 + Math.floor(rnd() * 4);
  // the root's outward directions: each link hanging from the root starts at its surface
  for (let i = 0; i < nl; i++) {
    // a link hangs from the root, or from a link without a child yet (two at one joint would start overlapping)
    const free = links.map((_, k) => k).filter((k) => !links.some((l) => l.parent === k));
    const parent = i === 0 || rnd() < 0.4 || free.length === 0 ? -1 : free[Math.floor(rnd() * free.length)];
    const base =
      parent < 0
        ? apart(
            sphereDir,
            links.filter((l) => l.parent < 0).map((l) => l.u),
          )
        : links[parent].u;
    const at: V3 = parent < 0 ? (base.map((x) => x * (reach(rootShape) + 0.02)) as V3) : (links[parent].u.map((x) => 2 * links[parent].L * x) as V3);
    const u = unit(base.map((x) => x + 0.35 * (rnd() - 0.5)));
    const L = between(0.08, 0.2);
    const m = between(0.2, 1.5);
    links.push({
      parent,
      at,
      axis: sphereDir(),
      q: between(-0.4, 0.4),
      qd: between(-2, 2),
      d: rnd() < 0.5 ? 0 : between(0, 0.3),
      u,
      L,
      m,
      shape: pickShape(rnd, between(0.02, 0.05), 2 * L - 0.1),
      material: material(m),
      bits: GROUND_BITS,
    });
  }
  // high enough that nothing touches the ground: the tree reaches at most the sum of its segments from the root's centre
  const height = reach(rootShape) + 0.03 + links.reduce((s, l) => s + 2 * l.L + 0.02 + reach(l.shape), 0) + between(0, 0.3);
  const q4 = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5],
    n4 = Math.hypot(...q4) || 1;
  const Q = q4.map((x) => x / n4) as [number, number, number, number];
  const tree: ContactTree = {
    root: {
      m: rootMass,
      shape: rootShape,
      material: material(rootMass),
      r: [between(-0.2, 0.2), height, between(-0.2, 0.2)],
      Q,
      v: [between(-1, 1), between(-1, 0.5), between(-1, 1)],
      w: [between(-3, 3), between(-3, 3), between(-3, 3)],
      bits: GROUND_BITS,
    },
    links,
    slipSpeed: rnd() < 0.5 ? 1e-3 : 1e-2,
    law,
    stop: 1,
  };
  // drawn last: the draws above, and so the tree but for its tips and bits, are those of every seed before tips and bits
  const bits = (): Bits => ({ contype: 1 + Math.floor(3 * rnd()), conaffinity: 1 + Math.floor(3 * rnd()) });
  tree.root.bits = bits();
  links.forEach((l, k) => {
    l.bits = bits();
    if (!links.some((c) => c.parent === k) && rnd() < 0.5) l.tip = { radius: between(0.02, 0.04), bits: bits() };
  });
  tree.friction = rnd() < 0.5 ? 'elasto-plastic' : 'regularised';
  return tree;
}

/** a draw of dir() more than 70 degrees from each of the directions taken (the first of 50 draws that is, else the last) */
function apart(dir: () => V3, taken: readonly V3[]): V3 {
  let u = dir();
  for (let k = 0; k < 50 && taken.some((t) => t[0] * u[0] + t[1] * u[1] + t[2] * u[2] > Math.cos((70 * Math.PI) / 180)); k++) u = dir();
  return u;
}

/**
 * A sphere, capsule, box, cylinder or convex hull of radius (half-width) r, the length along z up to `length`.
 * The hull: the box's corners each pulled in by up to 30% per coordinate, and six points on its faces'
 * middles, so that it has slanted faces and is not the box (it keeps the box's inertia: a test scene, not a
 * mass model).
 */
function pickShape(rnd: () => number, r: number, length: number): CollisionShape {
  const u = rnd(),
    long = Math.max(2 * r, length);
  if (u < 1 / 5) return { type: 'sphere', radius: r };
  if (u < 2 / 5) return { type: 'capsule', radius: r, length: Math.max(0, length - 2 * r) };
  if (u < 3 / 5) return { type: 'box', size: [2 * r, 2 * r, long] };
  if (u < 4 / 5) return { type: 'cylinder', radius: r, length: long };
  const half = [r, r, long / 2];
  const corners = [-1, 1].flatMap((x) => [-1, 1].flatMap((y) => [-1, 1].flatMap((z) => [x, y, z].map((c, i) => c * half[i] * (0.7 + 0.3 * rnd())))));
  const faces = [0, 1, 2].flatMap((i) => [-1, 1].flatMap((side) => [0, 1, 2].map((k) => (k === i ? side * half[k] : 0))));
  return { type: 'convex', vertices: [...corners, ...faces] };
}

/** the shape's furthest point from its centre */
const reach = (s: CollisionShape): number => boundingRadius(s);

/** a solid's inertia about its centre in its own frame (a capsule as a cylinder of its full length): [Ixx, Iyy, Izz] */
function solidInertia(s: CollisionShape, m: number): V3 {
  if (s.type === 'sphere') return [0.4 * m * s.radius ** 2, 0.4 * m * s.radius ** 2, 0.4 * m * s.radius ** 2];
  const [a, b, c] =
    s.type === 'box'
      ? s.size
      : s.type === 'capsule'
        ? [2 * s.radius, 2 * s.radius, s.length + 2 * s.radius]
        : s.type === 'cylinder'
          ? [2 * s.radius, 2 * s.radius, s.length]
          : s.type === 'convex'
            ? hullBox(s.vertices)
            : [0, 0, 0];
  if (s.type === 'box' || s.type === 'convex') return [(m * (b * b + c * c)) / 12, (m * (a * a + c * c)) / 12, (m * (a * a + b * b)) / 12];
  const r = a / 2,
    side = (m * (3 * r * r + c * c)) / 12;
  return [side, side, (m * r * r) / 2];
}

/** the edge lengths of the box around a hull's points (pickShape's hulls are symmetric about z, so Ixx = Iyy) */
function hullBox(v: readonly number[]): V3 {
  const size = (i: number) => 2 * Math.max(...v.filter((_, k) => k % 3 === i).map(Math.abs));
  const [x, y, z] = [size(0), size(1), size(2)];
  return [Math.max(x, y), Math.max(x, y), z];
}

/** the inertia of a shape whose z axis is turned onto unit u: I = a 1 + (b - a) u u^T for a shape symmetric about z ([a, a, b]) */
function turnedInertia(s: CollisionShape, m: number, u: V3): [number, number, number, number, number, number] {
  const [a, , b] = solidInertia(s, m);
  const k = b - a;
  return [a + k * u[0] * u[0], a + k * u[1] * u[1], a + k * u[2] * u[2], k * u[0] * u[1], k * u[0] * u[2], k * u[1] * u[2]];
}

// (tree) => its mechanism: root joint "root" (a free joint) and body "base", links j1.. and bodies b1.., the ground
export function buildContact(tree: ContactTree, seed: number): Mechanism {
  const m = new Mechanism(`contact${seed}`, { gravity: [0, -G, 0] });
  const { root } = tree;
  const free = m.free('root', { r: root.r, Q: root.Q, v: root.v, w: root.w });
  const base = m.body('base', { m: root.m, I: solidInertia(root.shape, root.m), collision: [{ shape: root.shape, material: root.material, ...root.bits }] });
  (m.connect(m.world.frame_b, free.frame_a), m.connect(free.frame_b, base.frame_a));
  const ends = [free.frame_b];
  tree.links.forEach((l, i) => {
    const k = i + 1;
    const bar = m.bar(`o${k}`, { r: l.at });
    const j = m.revolute(`j${k}`, { axis: l.axis, q: l.q, qd: l.qd, d: l.d });
    const centre = l.u.map((x) => l.L * x) as V3;
    const collider: Collider = { shape: l.shape, offset: centre, orientation: zOnto(l.u), material: l.material, ...l.bits };
    const tip: Collider[] = l.tip
      ? [{ name: 'tip', shape: { type: 'sphere', radius: l.tip.radius }, offset: l.u.map((x) => 2 * l.L * x) as V3, material: l.material, ...l.tip.bits }]
      : [];
    const body = m.body(`b${k}`, { m: l.m, rcm: centre, I: turnedInertia(l.shape, l.m, l.u), collision: [collider, ...tip] });
    (m.connect(ends[l.parent + 1], bar.frame_a), m.connect(bar.frame_b, j.frame_a), m.connect(j.frame_b, body.frame_a));
    ends.push(j.frame_b);
  });
  m.ground(GROUND_BITS);
  return m;
}

/** one line of what the tree contains, for the failure census */
export function contactFeatures(tree: ContactTree): string {
  // S sphere, C capsule, B box, Y cylinder, H hull (convex)
  const letter = (s: CollisionShape) => ({ sphere: 'S', capsule: 'C', box: 'B', cylinder: 'Y', convex: 'H', plane: 'P' })[s.type];
  return `base ${letter(tree.root.shape)}, links ${tree.links.map((l) => `${l.parent < 0 ? 'r' : l.parent + 1}${letter(l.shape)}${l.tip ? '+S' : ''}`).join(' ')}, ${tree.law}, ${tree.friction === 'elasto-plastic' ? 'elasto-plastic friction' : `v_s ${tree.slipSpeed}`}`;
}
