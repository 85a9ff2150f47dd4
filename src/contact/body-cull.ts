// Which geometries a contact pass can skip before their poses are composed,
// from the bodies' frames alone, by two tests:
//  1. the planes: a body whose frame_a origin is more than its reach (the
//     largest distance from that origin of any point of its geometries)
//     above every plane cannot touch one (clear[b]);
//  2. the other geometries: a body's geometries lie in a box fixed in its
//     frame_a (the union of their bounds there: centre c, half extents h),
//     so in the world they lie in the axis-aligned box of centre r + R c and
//     half extents |R| h (|R| elementwise). Sweep and prune over these boxes
//     (one per body with a pair of bounded geometries, one per bounded
//     geometry of the world) finds the body pairs whose geometries' bounds
//     could overlap.
// A body needs its geometries' poses (needed[b]) when it is not clear of the
// planes, or its box overlaps the box of a body it shares a pair with.
// candidates() lists the pairs of the overlapping body pairs whose geometry
// bounds overlap, in ascending pair order. The tight bounds of a geometry
// lie inside any box that holds the geometry, so a geometry pair whose
// bounds overlap has bodies whose boxes overlap (widened by the margin, which
// covers rounding): the list is exactly the scene pairs among what sweep and
// prune over every geometry's bounds finds (run.ts, uncull-ed), and the
// contacts are the same bit for bit. On Go2 standing its hips and thighs
// (8 of 13 bodies) get no pose and no bounds, and no pair is swept.
//
// Glossary: unit a body with a pair of bounded geometries, or a bounded
// geometry of the world (its box fixed); reach[b] the bound of test 1;
// planes the world's planes (point o and unit normal n, the half-space below
// them solid).
import { boundsOf } from './bounds.ts';
import { SweepAndPrune } from './broad-phase.ts';
import type { ContactScene } from './scene.ts';
import { boundingRadius } from './shapes.ts';

/** per body in run.ts's frame array: R (9), r (3), v (3), w (3) */
const BODY_STRIDE = 18;
/** more units than this keep run.ts's sweep over every geometry (the table of unit pairs has units² entries) */
const MAX_UNITS = 1024;

export class BodyCull {
  /** the cull applies: every plane is the world's, and the units are few enough for the table (else poses are needed for every geometry) */
  readonly active: boolean;
  /** per body: wholly above every plane (test 1) */
  readonly clear: Uint8Array;
  /** per body: its geometries need poses and bounds in this pass */
  readonly needed: Uint8Array;
  private readonly reach: Float64Array;
  /** per world plane: point o (3), normal n (3) */
  private readonly planes: Float64Array;
  /** per unit: its body, or -1 for a world geometry */
  private readonly unitBody: Int32Array;
  /** per unit: the box in its body's frame_a (centre c, half extents h), or in the world (min, max) for a world geometry */
  private readonly local: Float64Array;
  /** per unit, in the world: min xyz, max xyz */
  private readonly boxes: Float64Array;
  private readonly sap: SweepAndPrune;
  /** unitPair[a nu + b] (a < b): the unit pair's index, or -1 when they share no pair */
  private readonly unitPair: Int32Array;
  /** the scene pairs of unit pair q: pairList[pairStart[q] .. pairStart[q + 1]), ascending */
  private readonly pairStart: Int32Array;
  private readonly pairList: Int32Array;
  /** the unit pairs whose boxes overlap in the last update() */
  private readonly overlapping: Int32Array;
  private overlapCount = 0;

  constructor(
    private readonly scene: ContactScene,
    /** run.ts's margin: the contact margin and a margin over rounding */
    private readonly margin: number,
    /** false: never cull (active false), the tests' oracle */
    wanted = true,
  ) {
    const { geometries, pairs, bodies } = scene;
    const isPlane = (i: number) => geometries[i].shape.type === 'plane';
    this.clear = new Uint8Array(bodies.length);
    this.needed = new Uint8Array(bodies.length).fill(1);
    this.reach = new Float64Array(bodies.length);
    for (const g of geometries) {
      if (g.body < 0) continue;
      const r = Math.hypot(...g.offset) + boundingRadius(g.shape);
      this.reach[g.body] = Math.max(this.reach[g.body], r);
    }
    const planes = geometries.filter((g) => g.shape.type === 'plane');
    this.planes = Float64Array.from(planes.flatMap((g) => [...g.offset, g.R[2], g.R[5], g.R[8]]));
    // the units: bodies and world geometries in a pair of bounded geometries
    const swept = pairs.map(([i, j], k) => (isPlane(i) || isPlane(j) ? -1 : k)).filter((k) => k >= 0);
    const unitKey = (i: number) => (geometries[i].body >= 0 ? geometries[i].body : -1 - i);
    const keys = [...new Set(swept.flatMap((k) => pairs[k].map(unitKey)))].sort((a, b) => a - b);
    const unitOf = new Map(keys.map((key, u) => [key, u]));
    const nu = keys.length;
    this.active = wanted && geometries.every((g, i) => !isPlane(i) || g.body < 0) && nu <= MAX_UNITS;
    this.unitBody = Int32Array.from(keys, (key) => (key >= 0 ? key : -1));
    this.local = new Float64Array(6 * nu);
    this.boxes = new Float64Array(6 * nu);
    this.sap = new SweepAndPrune(nu);
    const box = new Float64Array(6),
      pose = new Float64Array(12);
    keys.forEach((key, u) => {
      const members = key >= 0 ? geometries.flatMap((g, i) => (g.body === key && !isPlane(i) ? [i] : [])) : [-1 - key];
      const lo = [Infinity, Infinity, Infinity],
        hi = [-Infinity, -Infinity, -Infinity];
      for (const i of members) {
        (pose.set(geometries[i].R), pose.set(geometries[i].offset, 9));
        boundsOf(box, 0, geometries[i].shape, pose, 0, 0);
        for (let a = 0; a < 3; a++) ((lo[a] = Math.min(lo[a], box[a])), (hi[a] = Math.max(hi[a], box[3 + a])));
      }
      if (key >= 0) this.local.set([0, 1, 2].flatMap((a) => (lo[a] + hi[a]) / 2).concat([0, 1, 2].map((a) => (hi[a] - lo[a]) / 2)), 6 * u);
      else this.boxes.set([...lo.map((v) => v - margin), ...hi.map((v) => v + margin)], 6 * u);
    });
    this.unitPair = new Int32Array(this.active ? nu * nu : 0).fill(-1);
    const byUnits = new Map<number, number[]>();
    for (const k of swept) {
      const [a, b] = pairs[k].map((i) => unitOf.get(unitKey(i))!).sort((x, y) => x - y);
      const list = byUnits.get(a * nu + b) ?? [];
      (list.push(k), byUnits.set(a * nu + b, list));
    }
    this.pairStart = new Int32Array(byUnits.size + 1);
    this.pairList = new Int32Array(swept.length);
    let q = 0,
      at = 0;
    for (const [ab, list] of byUnits) {
      if (this.active) this.unitPair[ab] = q;
      (this.pairList.set(list, at), (at += list.length), (this.pairStart[++q] = at));
    }
    this.overlapping = new Int32Array(byUnits.size);
  }

  // (run.ts's body frames) => clear[b] and needed[b] for every body, and the overlapping unit pairs
  update(body: Float64Array): void {
    const P = this.planes,
      { clear, needed } = this;
    for (let b = 0; b < clear.length; b++) {
      const o = BODY_STRIDE * b;
      let above = 1;
      for (let p = 0; p < P.length && above; p += 6) {
        const h = P[p + 3] * (body[o + 9] - P[p]) + P[p + 4] * (body[o + 10] - P[p + 1]) + P[p + 5] * (body[o + 11] - P[p + 2]);
        if (!(h - this.reach[b] > this.margin)) above = 0;
      }
      clear[b] = above;
      needed[b] = 1 - above;
    }
    this.overlapCount = 0;
    const nu = this.unitBody.length;
    if (nu === 0) return;
    const L = this.local,
      X = this.boxes;
    for (let u = 0; u < nu; u++) {
      const b = this.unitBody[u];
      if (b < 0) continue;
      const o = BODY_STRIDE * b,
        at = 6 * u;
      for (let i = 0; i < 3; i++) {
        const r0 = body[o + 3 * i],
          r1 = body[o + 3 * i + 1],
          r2 = body[o + 3 * i + 2];
        const c = body[o + 9 + i] + r0 * L[at] + r1 * L[at + 1] + r2 * L[at + 2],
          e = Math.abs(r0) * L[at + 3] + Math.abs(r1) * L[at + 4] + Math.abs(r2) * L[at + 5] + this.margin;
        ((X[at + i] = c - e), (X[at + 3 + i] = c + e));
      }
    }
    const { sap } = this;
    sap.find(X);
    for (let k = 0; k < sap.pairCount; k++) {
      const a = sap.pairs[2 * k],
        b = sap.pairs[2 * k + 1],
        q = this.unitPair[a * nu + b];
      if (q < 0) continue;
      this.overlapping[this.overlapCount++] = q;
      const ba = this.unitBody[a],
        bb = this.unitBody[b];
      if (ba >= 0) needed[ba] = 1;
      if (bb >= 0) needed[bb] = 1;
    }
  }

  /**
   * (run.ts's geometry bounds, each geometry's index into them, out) => the number of pairs written
   * to out: the scene pairs of the overlapping unit pairs whose geometry bounds overlap (the test of
   * sweep and prune: on every axis each interval reaches the other's lower end), ascending
   */
  candidates(bounds: Float64Array, slot: Int32Array, out: Int32Array): number {
    const { pairs } = this.scene;
    let n = 0;
    for (let m = 0; m < this.overlapCount; m++) {
      const q = this.overlapping[m];
      for (let s = this.pairStart[q]; s < this.pairStart[q + 1]; s++) {
        const k = this.pairList[s],
          a = 6 * slot[pairs[k][0]],
          b = 6 * slot[pairs[k][1]];
        if (
          bounds[a] <= bounds[b + 3] &&
          bounds[b] <= bounds[a + 3] &&
          bounds[a + 1] <= bounds[b + 4] &&
          bounds[b + 1] <= bounds[a + 4] &&
          bounds[a + 2] <= bounds[b + 5] &&
          bounds[b + 2] <= bounds[a + 5]
        )
          out[n++] = k;
      }
    }
    return sortAscending(out, n);
  }
}

/** (a, n) => n, with a[0 .. n) sorted ascending in place (insertion: a pass's pairs are few) */
export function sortAscending(a: Int32Array, n: number): number {
  for (let i = 1; i < n; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= 0 && a[j] > v) ((a[j + 1] = a[j]), j--);
    a[j + 1] = v;
  }
  return n;
}
