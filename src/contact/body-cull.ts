// Which bodies lie wholly above every plane of the scene, before their
// geometries' poses are composed: a body whose frame_a origin is more than
// its reach above a plane (the largest distance from that origin of any
// point of its geometries) cannot touch it, and in a scene whose pairs all
// join a plane (a robot against its floor: the MJCF and URDF importers'
// scenes) such a body's geometries need no pose, no bounds and no narrow
// test. The cull of run.ts by each geometry's bounds finds the same
// geometries clear (so the contacts are the same, bit for bit) but only after
// composing their poses and bounds; on Go2 standing this leaves 4 of its 13
// bodies (the calves and their feet) where there were 24 geometries.
//
// Glossary: reach[b] the bound above; planes the world's planes (point o and
// unit normal n, the half-space below them solid); clear[b] 1 when body b is
// above all of them by more than the margin.
import type { ContactScene } from './scene.ts';
import { boundingRadius } from './shapes.ts';

/** per body in run.ts's frame array: R (9), r (3), v (3), w (3) */
const BODY_STRIDE = 18;

export class BodyCull {
  /** the cull applies: every pair joins a plane on the world (else poses are needed for sweep and prune, or a plane moves) */
  readonly active: boolean;
  readonly clear: Uint8Array;
  private readonly reach: Float64Array;
  /** per world plane: point o (3), normal n (3) */
  private readonly planes: Float64Array;

  constructor(
    scene: ContactScene,
    /** run.ts's margin over rounding for a plane test */
    private readonly margin: number,
  ) {
    const { geometries, pairs, bodies } = scene;
    const isPlane = (i: number) => geometries[i].shape.type === 'plane';
    this.active = pairs.every(([i, j]) => isPlane(i) !== isPlane(j)) && geometries.every((g) => g.shape.type !== 'plane' || g.body < 0);
    this.clear = new Uint8Array(bodies.length);
    this.reach = new Float64Array(bodies.length);
    for (const g of geometries) {
      if (g.body < 0) continue;
      const r = Math.hypot(...g.offset) + boundingRadius(g.shape);
      this.reach[g.body] = Math.max(this.reach[g.body], r);
    }
    const planes = geometries.filter((g) => g.shape.type === 'plane');
    this.planes = Float64Array.from(planes.flatMap((g) => [...g.offset, g.R[2], g.R[5], g.R[8]]));
  }

  // (run.ts's body frames) => clear[b] for every body
  update(body: Float64Array): void {
    const P = this.planes,
      clear = this.clear;
    for (let b = 0; b < clear.length; b++) {
      const o = BODY_STRIDE * b;
      let above = 1;
      for (let p = 0; p < P.length && above; p += 6) {
        const h = P[p + 3] * (body[o + 9] - P[p]) + P[p + 4] * (body[o + 10] - P[p + 1]) + P[p + 5] * (body[o + 11] - P[p + 2]);
        if (!(h - this.reach[b] > this.margin)) above = 0;
      }
      clear[b] = above;
    }
  }
}
