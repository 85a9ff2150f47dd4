// The elasto-plastic friction's bristles of one run (elasto-plastic.ts): per
// pair, one bristle per contact point, each the material point b of B at the
// contact (in B's frame_a; the world's frame when B is the world) and its
// anchor a (in A's frame), kept after the last accepted step. Shared by the
// run's ContactRuns (its own, the stability probe's, the Jacobian's), so
// trial states see the bristles the step started from; changed only by
// accept() after an accepted step, so within a step f is a function of x.
//
// A pair's contact points have no identity from one evaluation to the next
// (contact/run.ts), so each point takes the bristle whose b is nearest to it
// in B's frame, nearest pairs first (greedy); a point left over is a new
// contact (d = 0 until the next accept()), a bristle left over is dropped
// there. B's frame, not the world: a box's corners stay where they are in it
// however the box moves, and a rolling sphere's contact point moves over it
// by v h per step, far less than two points of a pair lie apart.
// Capacity: CAPACITY points per pair; beyond, the rest are new contacts at
// every step (a hull on many vertices: a damper alone for those).
import type { ContactList } from './narrow/contact-list.ts';
import { NEXT_STRIDE } from './elasto-plastic.ts';
import type { ContactScene } from './scene.ts';

/** a ContactRun's frames per body, stride 18: R (9, row-major), r (3), v (3), w (3) of frame_a, world-resolved */
export const BODY_STRIDE = 18;

/** bristles kept per pair */
export const CAPACITY = 16;

export class Bristles {
  /** per pair, its bristles: count, and per bristle (stride 3 in blocks of CAPACITY) b in B's frame, a in A's */
  readonly count: Int32Array;
  readonly b: Float64Array;
  readonly a: Float64Array;
  /** matching's scratch: which bristles of the pair are taken */
  private readonly taken = new Uint8Array(CAPACITY);

  constructor(pairs: number) {
    this.count = new Int32Array(pairs);
    this.b = new Float64Array(3 * CAPACITY * pairs);
    this.a = new Float64Array(3 * CAPACITY * pairs);
  }

  /**
   * For contacts from..to-1 (one pair's, their points in B's frame at q, stride 3): slot[k] the
   * index into b and a (its first component) of the bristle each takes, or -1 (a new contact)
   */
  match(pair: number, from: number, to: number, q: Float64Array, slot: Int32Array): void {
    const nb = this.count[pair],
      base = 3 * CAPACITY * pair,
      L = this.b,
      taken = this.taken;
    for (let k = from; k < to; k++) slot[k] = -1;
    taken.fill(0, 0, nb);
    for (let round = 0; round < Math.min(nb, to - from); round++) {
      let best = Infinity,
        bk = -1,
        bb = -1;
      for (let k = from; k < to; k++) {
        if (slot[k] >= 0) continue;
        for (let b = 0; b < nb; b++) {
          if (taken[b]) continue;
          const o = base + 3 * b;
          const dist = (q[3 * k] - L[o]) ** 2 + (q[3 * k + 1] - L[o + 1]) ** 2 + (q[3 * k + 2] - L[o + 2]) ** 2;
          if (dist < best) ((best = dist), (bk = k), (bb = b));
        }
      }
      if (bk < 0) break;
      ((slot[bk] = base + 3 * bb), (taken[bb] = 1));
    }
  }

  /**
   * After an accepted step: the bristles are the contacts of the accepted state that push (fn > 0),
   * each its point in B's frame (qB, stride 3) and its anchor in A's (qA: the point less the
   * deflection the law kept); pairs not in contact have none
   */
  accept(c: ContactList, fn: Float64Array, qB: Float64Array, qA: Float64Array): void {
    this.count.fill(0);
    for (let k = 0; k < c.count; k++) {
      const p = c.pair[k];
      if (!(fn[k] > 0) || this.count[p] === CAPACITY) continue;
      const o = 3 * (CAPACITY * p + this.count[p]++);
      for (let i = 0; i < 3; i++) ((this.b[o + i] = qB[3 * k + i]), (this.a[o + i] = qA[3 * k + i]));
    }
  }
}

/**
 * One ContactRun's work on the run's bristles at an evaluation: each contact's point in B's frame and
 * the bristle it takes (match), its deflection (deflection), and what the law keeps (next, stride
 * NEXT_STRIDE), which keep() hands to the bristles after an accepted step. Reused between evaluations.
 */
export class BristleWork {
  qB = new Float64Array(48);
  slot = new Int32Array(16);
  next = new Float64Array(NEXT_STRIDE * 16);
  private anchors = new Float64Array(48);
  private readonly e = new Float64Array(3);

  constructor(
    readonly bristles: Bristles,
    private readonly scene: ContactScene,
  ) {}

  /** (contacts, the bodies' frames) => each contact's point in B's frame and its bristle, pair by pair (a pair's contacts are consecutive) */
  match(c: ContactList, frames: Float64Array): void {
    const { geometries, pairs } = this.scene;
    if (this.slot.length < c.count)
      ((this.slot = new Int32Array(c.dist.length)),
        (this.qB = new Float64Array(3 * c.dist.length)),
        (this.next = new Float64Array(NEXT_STRIDE * c.dist.length)));
    for (let k = 0; k < c.count; k++) toLocal(this.qB, 3 * k, frames, geometries[pairs[c.pair[k]][1]].body, c.point.subarray(3 * k, 3 * k + 3));
    for (let from = 0; from < c.count;) {
      let to = from + 1;
      while (to < c.count && c.pair[to] === c.pair[from]) to++;
      this.bristles.match(c.pair[from], from, to, this.qB, this.slot);
      from = to;
    }
  }

  /** contact k's deflection d = X_B b - X_A a of its bristle (world; bodies bA and bB, -1 the world); 0 for a new contact */
  deflection(k: number, bA: number, bB: number, frames: Float64Array): Float64Array {
    const e = this.e,
      at = this.slot[k];
    e.fill(0);
    if (at >= 0) (addWorld(e, frames, bB, this.bristles.b, at, 1), addWorld(e, frames, bA, this.bristles.a, at, -1));
    return e;
  }

  /** after an accepted step (the contacts and forces of an evaluation there): its bristles, anchored at the points less the deflection kept */
  keep(c: ContactList, fn: Float64Array, frames: Float64Array): void {
    const { geometries, pairs } = this.scene;
    if (this.anchors.length < 3 * c.count) this.anchors = new Float64Array(3 * c.dist.length);
    for (let k = 0; k < c.count; k++) {
      for (let i = 0; i < 3; i++) this.e[i] = c.point[3 * k + i] - this.next[NEXT_STRIDE * k + i];
      toLocal(this.anchors, 3 * k, frames, geometries[pairs[c.pair[k]][0]].body, this.e);
    }
    this.bristles.accept(c, fn, this.qB, this.anchors);
  }
}

/** world point p into body b's frame_a, at out[at..at+2]: R^T (p - r) (the world's frame: p) */
function toLocal(out: Float64Array, at: number, frames: Float64Array, b: number, p: ArrayLike<number>): void {
  if (b < 0) return void ((out[at] = p[0]), (out[at + 1] = p[1]), (out[at + 2] = p[2]));
  const o = BODY_STRIDE * b;
  const dx = p[0] - frames[o + 9],
    dy = p[1] - frames[o + 10],
    dz = p[2] - frames[o + 11];
  for (let i = 0; i < 3; i++) out[at + i] = frames[o + i] * dx + frames[o + 3 + i] * dy + frames[o + 6 + i] * dz;
}

/** out += sign X_b q[at..at+2] = sign (R q + r), body b's frame_a (the world's: q) */
function addWorld(out: Float64Array, frames: Float64Array, b: number, q: Float64Array, at: number, sign: number): void {
  if (b < 0) return void ((out[0] += sign * q[at]), (out[1] += sign * q[at + 1]), (out[2] += sign * q[at + 2]));
  const o = BODY_STRIDE * b;
  for (let i = 0; i < 3; i++)
    out[i] += sign * (frames[o + 9 + i] + frames[o + 3 * i] * q[at] + frames[o + 3 * i + 1] * q[at + 1] + frames[o + 3 * i + 2] * q[at + 2]);
}
