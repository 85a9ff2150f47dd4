// Contact in a run: how contact forces enter the compiled model.
//
// The design. Every body with collision geometry has an external wrench as
// inputs (library/multibody/body.ts: contact_f[1..3], contact_t[1..3],
// world-resolved, at and about frame_a's origin). The compiled code, torn or
// relaxed, treats them like any input: nothing is recompiled when contacts
// make or break, and both solve forms see the same forces. Before each
// evaluation of the derivatives at (t, x) the integrator calls apply(t, x):
//   1. the model is evaluated once at (t, x) for the bodies' frames (R, r,
//      v, w): positions and velocities depend on x alone, never on inputs
//      (forces act on accelerations), so what the contact inputs hold then
//      does not matter;
//   2. the geometries' world poses, the broad phase (sweep and prune over
//      the bounded geometries; every plane against every bounded geometry),
//      the filter of the scene (scene.ts), the narrow phase;
//   3. the force law at every contact (law.ts), summed per body into its
//      wrench about frame_a's origin, written into the inputs;
// then the integrator evaluates the derivatives with those inputs. So
// derivatives with contact remain a pure function of (t, x), as a
// controller's are (sim/controller.ts), and every stepper, the stability
// check and the stiff solver's difference Jacobian see the contact forces.
//
// The price is the first evaluation: twice the derivatives' cost per
// evaluation. A kinematics-only pass (the steps the frames need, as
// structure/needed.ts splits off the outputs) would make it a fraction.
import { SimulationError } from '../errors.ts';
import type { ModelState } from '../codegen/state.ts';
import { SweepAndPrune } from './broad-phase.ts';
import { boundsOf } from './bounds.ts';
import { pairKey } from './filter.ts';
import { contactForce } from './law.ts';
import { ContactList } from './narrow/contact-list.ts';
import { collide } from './narrow/collide.ts';
import { POSE_STRIDE, composePose } from './pose.ts';
import type { ContactScene } from './scene.ts';

/** per body, stride 18: R (9, row-major), r (3), v (3), w (3) of frame_a, world-resolved */
const BODY_STRIDE = 18;
const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1], ZERO = [0, 0, 0];

export class ContactRun {
  /** the contacts of the last apply(), and the force on geometry B of each (stride 3) and its normal part */
  readonly contacts = new ContactList();
  forces = new Float64Array(48);
  normalForces = new Float64Array(16);
  private readonly frames: ((x: Float64Array) => number)[];
  private readonly inputs: Int32Array;
  private readonly body: Float64Array;
  private readonly poses: Float64Array;
  private readonly bounds: Float64Array;
  /** the bounded geometries (sweep and prune's indices into them) and the planes */
  private readonly bounded: number[];
  private readonly planes: number[];
  private readonly sap: SweepAndPrune;
  private readonly pairIndex: Map<number, number>;
  private readonly scratch: Float64Array;
  private readonly wrench: Float64Array;
  /** per contact: A's and B's point velocities, B's relative to A's, the force (reused) */
  private readonly vA = new Float64Array(3);
  private readonly vB = new Float64Array(3);
  private readonly vRel = new Float64Array(3);
  private readonly f = new Float64Array(3);
  /** narrow-phase pair tests in the last apply() (what the broad phase let through) */
  narrowTests = 0;

  constructor(readonly scene: ContactScene, readonly state: ModelState) {
    const names = (b: string) => [
      ...[1, 2, 3].flatMap((i) => [1, 2, 3].map((j) => `${b}.frame_a.R[${i}][${j}]`)),
      ...['r', 'v', 'w'].flatMap((q) => [1, 2, 3].map((i) => `${b}.frame_a.${q}[${i}]`)),
    ];
    this.frames = scene.bodies.flatMap((b) => names(b).map((n) => state.reader(n)));
    const layout = state.model.generated.layout.inputs;
    this.inputs = Int32Array.from(scene.bodies.flatMap((b) => ['f', 't'].flatMap((q) => [1, 2, 3].map((i) => {
      const k = layout.indexOf(`${b}.contact_${q}[${i}]`);
      if (k < 0) throw new SimulationError(`body ${b} has collision geometry, but its contact input ${b}.contact_${q}[${i}] is not an input of the compiled model`, { component: b, hint: 'compile the mechanism the contact scene was made from, as it is (an equation of the model may define the input)' });
      return k;
    }))));
    const n = scene.geometries.length;
    this.body = new Float64Array(BODY_STRIDE * scene.bodies.length);
    this.poses = new Float64Array(POSE_STRIDE * n);
    this.bounded = scene.geometries.map((g, i) => (g.shape.type === 'plane' ? -1 : i)).filter((i) => i >= 0);
    this.planes = scene.geometries.map((g, i) => (g.shape.type === 'plane' ? i : -1)).filter((i) => i >= 0);
    this.bounds = new Float64Array(6 * this.bounded.length);
    this.sap = new SweepAndPrune(this.bounded.length);
    this.pairIndex = new Map(scene.pairs.map(([i, j], k) => [pairKey(i, j), k]));
    this.scratch = new Float64Array(state.model.stateNames.length);
    this.wrench = new Float64Array(6 * scene.bodies.length);
    // the world's geometries do not move: their poses once
    scene.geometries.forEach((g, i) => g.body < 0 && composePose(this.poses, POSE_STRIDE * i, IDENTITY, ZERO, g.R, g.offset));
  }

  // (t, x) => the contact wrenches at (t, x) in the state's inputs (the model evaluated at (t, x) on the way)
  apply(t: number, x: Float64Array): void {
    this.state.derivatives(t, x, this.scratch);
    this.readFrames(x);
    this.detect();
    this.forcesToWrenches();
    for (let k = 0; k < this.inputs.length; k++) this.state.u[this.inputs[k]] = this.wrench[k];
  }

  private readFrames(x: Float64Array): void {
    for (let k = 0; k < this.frames.length; k++) this.body[k] = this.frames[k](x);
    const { geometries } = this.scene;
    for (let i = 0; i < geometries.length; i++) {
      const g = geometries[i];
      if (g.body < 0) continue;
      const b = BODY_STRIDE * g.body;
      composePose(this.poses, POSE_STRIDE * i, this.body.subarray(b, b + 9), this.body.subarray(b + 9, b + 12), g.R, g.offset);
    }
  }

  private detect(): void {
    const { geometries } = this.scene, out = this.contacts;
    out.clear();
    this.narrowTests = 0;
    this.bounded.forEach((g, k) => boundsOf(this.bounds, 6 * k, geometries[g].shape, this.poses, POSE_STRIDE * g, 0));
    this.sap.find(this.bounds);
    for (let k = 0; k < this.sap.pairCount; k++) this.test(this.bounded[this.sap.pairs[2 * k]], this.bounded[this.sap.pairs[2 * k + 1]]);
    for (const p of this.planes) for (const g of this.bounded) this.test(Math.min(p, g), Math.max(p, g));
  }

  private test(i: number, j: number): void {
    const pair = this.pairIndex.get(pairKey(i, j));
    if (pair === undefined) return;
    this.narrowTests++;
    const { geometries } = this.scene;
    collide(this.contacts, this.poses, POSE_STRIDE * i, geometries[i].shape, POSE_STRIDE * j, geometries[j].shape, 0, pair);
  }

  private forcesToWrenches(): void {
    const c = this.contacts, { scene } = this;
    this.wrench.fill(0);
    if (this.forces.length < 3 * c.count) this.forces = new Float64Array(3 * c.dist.length), this.normalForces = new Float64Array(c.dist.length);
    const { vA, vB, vRel: v, f } = this;
    for (let k = 0; k < c.count; k++) {
      const [i, j] = scene.pairs[c.pair[k]];
      const bA = scene.geometries[i].body, bB = scene.geometries[j].body;
      const p = c.point.subarray(3 * k, 3 * k + 3), n = c.normal.subarray(3 * k, 3 * k + 3);
      this.pointVelocity(vA, bA, p), this.pointVelocity(vB, bB, p);
      for (let q = 0; q < 3; q++) v[q] = vB[q] - vA[q];
      this.normalForces[k] = contactForce(f, scene.materials[c.pair[k]], c.dist[k], n, v, scene.slipSpeed);
      this.forces.set(f, 3 * k);
      this.addWrench(bB, p, f, 1), this.addWrench(bA, p, f, -1);
    }
  }

  /** the velocity of body b's material point at p: v + w x (p - r); the world's: 0 */
  private pointVelocity(out: Float64Array, b: number, p: ArrayLike<number>): void {
    if (b < 0) return void out.fill(0);
    const s = this.body, o = BODY_STRIDE * b;
    const dx = p[0] - s[o + 9], dy = p[1] - s[o + 10], dz = p[2] - s[o + 11];
    out[0] = s[o + 12] + s[o + 16] * dz - s[o + 17] * dy;
    out[1] = s[o + 13] + s[o + 17] * dx - s[o + 15] * dz;
    out[2] = s[o + 14] + s[o + 15] * dy - s[o + 16] * dx;
  }

  /** sign * f at p added to body b's wrench about its frame_a origin: F += f, T += (p - r) x f */
  private addWrench(b: number, p: ArrayLike<number>, f: ArrayLike<number>, sign: number): void {
    if (b < 0) return;
    const s = this.body, o = BODY_STRIDE * b, w = this.wrench, a = 6 * b;
    const dx = p[0] - s[o + 9], dy = p[1] - s[o + 10], dz = p[2] - s[o + 11];
    const fx = sign * f[0], fy = sign * f[1], fz = sign * f[2];
    w[a] += fx, w[a + 1] += fy, w[a + 2] += fz;
    w[a + 3] += dy * fz - dz * fy, w[a + 4] += dz * fx - dx * fz, w[a + 5] += dx * fy - dy * fx;
  }
}
