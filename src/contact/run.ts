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
//      the filter of the scene (scene.ts), the narrow phase; body-cull.ts
//      first skips the bodies that can touch nothing, and the pairs are
//      tested in ascending order, so the contacts are the same bit for bit
//      whatever was skipped;
//   3. the force law at every contact (law.ts), summed per body into its
//      wrench about frame_a's origin, written into the inputs;
// then the integrator evaluates the derivatives with those inputs. So
// derivatives with contact remain a pure function of (t, x), as a
// controller's are (sim/controller.ts), and every stepper, the stability
// check and the stiff solver's difference Jacobian see the contact forces.
//
// Contact changes the model's stiffness where contacts make, break or begin
// to stick: `regime` hashes which pairs push and which stick, and RK4's
// stability check runs again when it changes (sim/simulate.ts, recheck),
// with the stick stiffness of the sticking contacts (sim/stick-step.ts).
//
// Per-pair signals (signals.ts: contact.<pair>.fn, .ft[1..2], .p[1..3],
// .f[1..3]). Contacts come and go, and a pair's number of contact points
// with them, so they cannot be compiled signals (a fixed layout of inputs
// or outputs would need a bound on the contacts and a recompilation to
// change it). They are the run's: one record per pair that may touch
// (the scene's pairs, fixed when the scene is made), summed over the pair's
// contacts after the forces, and read by simulate's samplers like any
// signal. Per pair rather than per contact point, because a pair's points
// have no identity from one evaluation to the next (a box's corners on a
// plane come in the order of the narrow phase, and clipping makes new
// ones); the sum, the centre of pressure and the tangential force along a
// basis of the mean normal are continuous where the points are not. Only a
// run that asks records them (recordPairs()): other runs do the same work
// as before, bit for bit.
//
// The frames come from a kinematics-only pass where the plan computes
// them by explicit assignments (kinematics.ts: the steps the frames need,
// generated alone, a fraction of the derivatives' cost); else (a frame
// solved inside a loop) from an evaluation of the whole model at (t, x),
// twice the derivatives' cost per evaluation.
import { SimulationError } from '../errors.ts';
import type { ModelState } from '../codegen/state.ts';
import { SweepAndPrune } from './broad-phase.ts';
import { boundsOf } from './bounds.ts';
import { pairKey } from './filter.ts';
import { contactForce } from './law.ts';
import { BODY_STRIDE, BristleWork, Bristles } from './bristles.ts';
import { NEXT_STRIDE, elastoPlasticForce } from './elasto-plastic.ts';
import { PAIR_STRIDE, fillPairRecords } from './signals.ts';
import { ContactList } from './narrow/contact-list.ts';
import type { FrameKinematics } from './kinematics.ts';
import { collide } from './narrow/collide.ts';
import { POSE_STRIDE, composePose } from './pose.ts';
import { BodyCull, sortAscending } from './body-cull.ts';
import type { ContactScene } from './scene.ts';

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1],
  ZERO = [0, 0, 0];
/** slip below STICK_SLIP v_s counts as sticking: the law's tangential stiffness is within 1/1000 of mu fn / v_s there */
const STICK_SLIP = 10;
/** a geometry's bounds this far above a plane (m) skip its narrow test: a margin over rounding, where the narrow phase's own points could differ from the bounds' in the last bits */
const PLANE_CLEARANCE = 1e-9;

export class ContactRun {
  /** the contacts of the last apply(), and the force on geometry B of each (stride 3), its normal part, and whether it sticks */
  readonly contacts = new ContactList();
  forces = new Float64Array(48);
  normalForces = new Float64Array(16);
  sticks = new Uint8Array(16);
  /** readers of the frames from an evaluated model, made when first needed (no kinematics code): a reader costs a signal lookup, 234 of them on Go2 */
  private frames: ((x: Float64Array) => number)[] | undefined;
  private readonly frameNames: string[];
  /** the frames' own code (kinematics.ts), else why there is none and the model is evaluated for them */
  readonly kinematics: FrameKinematics | string;
  /** the contact inputs' indices in the state's u, per body stride 6: contact_f[1..3], contact_t[1..3] */
  readonly inputs: Int32Array;
  private readonly body: Float64Array;
  /** each geometry's pose in its body's frame_a (R row-major, then offset; stride 12): one typed array, so composing poses stays monomorphic */
  private readonly local: Float64Array;
  /** the contact point and normal being worked on (copied: views per contact would allocate at every evaluation) */
  private readonly p = new Float64Array(3);
  private readonly n = new Float64Array(3);
  private readonly poses: Float64Array;
  private readonly bounds: Float64Array;
  /** the bounded geometries (sweep and prune's indices into them) and the planes */
  private readonly bounded: number[];
  private readonly planes: number[];
  private readonly sap: SweepAndPrune;
  /** the bodies whose geometries can touch nothing, skipped (body-cull.ts), unless the run asked for no cull (the tests' oracle) */
  private readonly cull: BodyCull;
  /** each geometry's index into bounded (and bounds), -1 for a plane */
  private readonly slot: Int32Array;
  /** the pairs of bounded geometries a pass tests (ascending) */
  private readonly found: Int32Array;
  /** some pair of the scene joins two bounded geometries: else sweep and prune has nothing to find (a robot against its planes) */
  private readonly sweeps: boolean;
  private readonly pairIndex: Map<number, number>;
  private readonly scratch: Float64Array;
  /** per body (stride 6) the wrench of the last apply(), as written into the inputs */
  readonly wrench: Float64Array;
  /** per contact: A's and B's point velocities, B's relative to A's, the force (reused) */
  private readonly vA = new Float64Array(3);
  private readonly vB = new Float64Array(3);
  private readonly vRel = new Float64Array(3);
  private readonly f = new Float64Array(3);
  /** per pair, the slip velocity at its last contact (stride 3) */
  private readonly lastSlip: Float64Array;
  /** readers of each body's frame_a.a[1..3], z[1..3] (stride 6), made when first asked for */
  private accelerations: ((x: Float64Array) => number)[] | undefined;
  /** per pair, its signals at the last apply() (signals.ts, stride PAIR_STRIDE), once recordPairs() asked for them */
  pairRecords: Float64Array | undefined;
  private pairNormals: Float64Array | undefined;
  /** the pairs in contact at keepActive()'s apply(), their geometries and those geometries' bodies (applyActive's) */
  private activePairs: number[] = [];
  private activeGeometries: number[] = [];
  private activeBodies: number[] = [];
  /** elasto-plastic friction (elasto-plastic.ts): the run's bristles and this ContactRun's work on them (bristles.ts) */
  readonly bristles: Bristles | undefined;
  private readonly bristleWork: BristleWork | undefined;
  /** narrow-phase pair tests in the last apply() (what the broad phase let through) */
  narrowTests = 0;
  /**
   * A hash of the last apply()'s contact regime: which pairs push, and which of those stick (slip
   * below STICK_SLIP v_s, where the friction's stiffness mu fn / v_s is far above its sliding value).
   * The stiffness changes with it: RK4's stability is checked again when it changes (sim/simulate.ts).
   */
  regime = 0;

  constructor(
    readonly scene: ContactScene,
    readonly state: ModelState,
    /** where the frames come from: their own code where there is some (the default), or the whole model (the tests' oracle) */
    frames: 'kinematics' | 'model' = 'kinematics',
    /** elasto-plastic friction: the run's bristles, shared by its ContactRuns (default: bristles of its own) */
    bristles?: Bristles,
    /** contacts reported up to this distance apart (m): the contact events' indicators (sim/contact-events.ts); forces act only below 0 */
    readonly margin = 0,
    /** skip the geometries that can touch nothing (body-cull.ts; false: test every pair the broad phase finds, the tests' oracle) */
    cull = true,
  ) {
    this.bristles = scene.friction === 'elasto-plastic' ? (bristles ?? new Bristles(scene.pairs.length)) : undefined;
    this.bristleWork = this.bristles && new BristleWork(this.bristles, scene);
    const names = (b: string) => [
      ...[1, 2, 3].flatMap((i) => [1, 2, 3].map((j) => `${b}.frame_a.R[${i}][${j}]`)),
      ...['r', 'v', 'w'].flatMap((q) => [1, 2, 3].map((i) => `${b}.frame_a.${q}[${i}]`)),
    ];
    this.frameNames = scene.bodies.flatMap(names);
    this.kinematics = frames === 'model' ? 'asked for the model' : scene.frameKinematics(state.model, this.frameNames);
    const layout = state.model.generated.layout.inputs;
    this.inputs = Int32Array.from(
      scene.bodies.flatMap((b) =>
        ['f', 't'].flatMap((q) =>
          [1, 2, 3].map((i) => {
            const k = layout.indexOf(`${b}.contact_${q}[${i}]`);
            if (k < 0)
              throw new SimulationError(
                `body ${b} has collision geometry, but its contact input ${b}.contact_${q}[${i}] is not an input of the compiled model`,
                { component: b, hint: 'compile the mechanism the contact scene was made from, as it is (an equation of the model may define the input)' },
              );
            return k;
          }),
        ),
      ),
    );
    const n = scene.geometries.length;
    this.body = new Float64Array(BODY_STRIDE * scene.bodies.length);
    this.poses = new Float64Array(POSE_STRIDE * n);
    this.local = new Float64Array(POSE_STRIDE * n);
    scene.geometries.forEach((g, i) => (this.local.set(g.R, POSE_STRIDE * i), this.local.set(g.offset, POSE_STRIDE * i + 9)));
    this.bounded = scene.geometries.map((g, i) => (g.shape.type === 'plane' ? -1 : i)).filter((i) => i >= 0);
    this.planes = scene.geometries.map((g, i) => (g.shape.type === 'plane' ? i : -1)).filter((i) => i >= 0);
    this.bounds = new Float64Array(6 * this.bounded.length);
    this.sap = new SweepAndPrune(this.bounded.length);
    this.cull = new BodyCull(scene, PLANE_CLEARANCE + margin, cull);
    this.slot = new Int32Array(n).fill(-1);
    this.bounded.forEach((i, k) => (this.slot[i] = k));
    this.found = new Int32Array(scene.pairs.length);
    this.sweeps = scene.pairs.some(([i, j]) => scene.geometries[i].shape.type !== 'plane' && scene.geometries[j].shape.type !== 'plane');
    this.pairIndex = new Map(scene.pairs.map(([i, j], k) => [pairKey(i, j), k]));
    this.scratch = new Float64Array(state.model.stateNames.length);
    this.wrench = new Float64Array(6 * scene.bodies.length);
    this.lastSlip = new Float64Array(3 * scene.pairs.length);
    // the world's geometries do not move: their poses once
    scene.geometries.forEach((g, i) => g.body < 0 && composePose(this.poses, POSE_STRIDE * i, IDENTITY, ZERO, g.R, g.offset));
  }

  /** from the next apply() on, fill pairRecords (the per-pair signals); returns them */
  recordPairs(): Float64Array {
    this.pairNormals ??= new Float64Array(3 * this.scene.pairs.length);
    return (this.pairRecords ??= new Float64Array(PAIR_STRIDE * this.scene.pairs.length));
  }

  // (t, x) => the contact wrenches at (t, x) in the state's inputs (the frames' kinematics, or the model, evaluated at (t, x) on the way)
  apply(t: number, x: Float64Array): void {
    this.readFrames(t, x);
    this.detect();
    this.forcesToWrenches();
    for (let k = 0; k < this.inputs.length; k++) this.state.u[this.inputs[k]] = this.wrench[k];
  }

  /**
   * After an accepted step to (t, x): the contacts there, and (elasto-plastic friction) the bristles the
   * next step starts from (bristles.ts). The regularised law keeps nothing between steps.
   */
  accept(t: number, x: Float64Array): void {
    if (!this.bristleWork) return;
    this.apply(t, x);
    this.bristleWork.keep(this.contacts, this.normalForces, this.body);
  }

  /** the pairs in contact at the last apply() are those applyActive() tests from now on */
  keepActive(): void {
    const c = this.contacts,
      { scene } = this;
    this.activePairs = [...new Set(Array.from(c.pair.subarray(0, c.count)))];
    this.activeGeometries = [...new Set(this.activePairs.flatMap((k) => scene.pairs[k]))];
    this.activeBodies = [...new Set(this.activeGeometries.map((g) => scene.geometries[g].body).filter((b) => b >= 0))];
  }

  /**
   * The contact wrenches at (t, x), written into the inputs as apply() writes them, of the pairs in
   * contact at keepActive() alone: their bodies' frames, their narrow phase, the law; no broad phase,
   * no other geometry. What differences of the wrenches near that state need (sim/contact-jacobian.ts),
   * at a fraction of apply()'s cost (Go2: 4 of 24 geometries, 4 of 13 bodies' frames copied).
   */
  applyActive(t: number, x: Float64Array): void {
    const kin = this.kinematics,
      { geometries, pairs } = this.scene;
    if (typeof kin === 'string') this.readFrames(t, x);
    else {
      kin.run(t, x, this.state.u, this.state.p);
      const { w, slots } = kin;
      for (const b of this.activeBodies) for (let k = BODY_STRIDE * b; k < BODY_STRIDE * (b + 1); k++) this.body[k] = w[slots[k]];
      for (const i of this.activeGeometries) {
        const g = geometries[i];
        if (g.body >= 0) this.pose(i, g.body);
      }
    }
    this.contacts.clear();
    for (const k of this.activePairs) {
      const [i, j] = pairs[k];
      collide(this.contacts, this.poses, POSE_STRIDE * i, geometries[i].shape, POSE_STRIDE * j, geometries[j].shape, this.margin, k);
    }
    this.forcesToWrenches();
    for (let k = 0; k < this.inputs.length; k++) this.state.u[this.inputs[k]] = this.wrench[k];
  }

  private readFrames(t: number, x: Float64Array): void {
    const kin = this.kinematics;
    if (typeof kin === 'string') {
      this.state.derivatives(t, x, this.scratch);
      const frames = (this.frames ??= this.frameNames.map((n) => this.state.reader(n)));
      for (let k = 0; k < frames.length; k++) this.body[k] = frames[k](x);
    } else {
      kin.run(t, x, this.state.u, this.state.p);
      const { w, slots } = kin;
      for (let k = 0; k < slots.length; k++) this.body[k] = w[slots[k]];
    }
    const { geometries } = this.scene,
      { cull } = this;
    if (cull.active) cull.update(this.body);
    for (let i = 0; i < geometries.length; i++) {
      const b = geometries[i].body;
      if (b < 0 || (cull.active && !cull.needed[b])) continue;
      this.pose(i, b);
    }
  }

  /** geometry i's world pose from its body b's frame: R = R_b R_local, p = r_b + R_b offset (pose.ts composePose, on the flat arrays) */
  private pose(i: number, b: number): void {
    const out = this.poses,
      L = this.local,
      B = this.body,
      at = POSE_STRIDE * i,
      o = BODY_STRIDE * b;
    for (let r = 0; r < 3; r++) {
      const b0 = B[o + 3 * r],
        b1 = B[o + 3 * r + 1],
        b2 = B[o + 3 * r + 2];
      for (let c = 0; c < 3; c++) out[at + 3 * r + c] = b0 * L[at + c] + b1 * L[at + 3 + c] + b2 * L[at + 6 + c];
      out[at + 9 + r] = B[o + 9 + r] + b0 * L[at + 9] + b1 * L[at + 10] + b2 * L[at + 11];
    }
  }

  private detect(): void {
    const { geometries } = this.scene,
      out = this.contacts;
    out.clear();
    this.narrowTests = 0;
    const { bounded, cull, found } = this,
      culls = cull.active;
    for (let k = 0; k < bounded.length; k++) {
      const b = geometries[bounded[k]].body;
      if (!culls || b < 0 || cull.needed[b]) boundsOf(this.bounds, 6 * k, geometries[bounded[k]].shape, this.poses, POSE_STRIDE * bounded[k], this.margin);
    }
    // the pairs of bounded geometries whose bounds overlap, tested in ascending pair order (which the broad phase does not keep)
    let n = 0;
    if (culls) n = cull.candidates(this.bounds, this.slot, found);
    else if (this.sweeps) {
      this.sap.find(this.bounds);
      for (let k = 0; k < this.sap.pairCount; k++) {
        const pair = this.pairIndex.get(pairKey(bounded[this.sap.pairs[2 * k]], bounded[this.sap.pairs[2 * k + 1]]));
        if (pair !== undefined) found[n++] = pair;
      }
      sortAscending(found, n);
    }
    for (let m = 0; m < n; m++) this.testPair(found[m]);
    for (const p of this.planes) {
      for (let k = 0; k < bounded.length; k++) {
        const b = geometries[bounded[k]].body;
        if (!(culls && b >= 0 && cull.clear[b]) && !this.clearOf(p, k)) this.test(Math.min(p, bounded[k]), Math.max(p, bounded[k]));
      }
    }
  }

  /**
   * Are the bounds of bounded geometry k wholly above plane p (its lowest corner along the
   * normal more than PLANE_CLEARANCE above it)? Then the plane's narrow phase, whose
   * candidate points lie in the geometry and so in its bounds, would find nothing: a robot's
   * links in the air cost no plane test (the cull pays on Go2: 4 feet tested, not 17 geoms).
   */
  private clearOf(p: number, k: number): boolean {
    const pose = this.poses,
      a = POSE_STRIDE * p,
      b = this.bounds,
      at = 6 * k;
    const nx = pose[a + 2],
      ny = pose[a + 5],
      nz = pose[a + 8];
    const lowest =
      nx * (b[at + (nx > 0 ? 0 : 3)] - pose[a + 9]) + ny * (b[at + (ny > 0 ? 1 : 4)] - pose[a + 10]) + nz * (b[at + (nz > 0 ? 2 : 5)] - pose[a + 11]);
    return lowest > PLANE_CLEARANCE + this.margin;
  }

  private test(i: number, j: number): void {
    const pair = this.pairIndex.get(pairKey(i, j));
    if (pair !== undefined) this.testPair(pair);
  }

  private testPair(pair: number): void {
    this.narrowTests++;
    const { geometries, pairs } = this.scene,
      [i, j] = pairs[pair];
    collide(this.contacts, this.poses, POSE_STRIDE * i, geometries[i].shape, POSE_STRIDE * j, geometries[j].shape, this.margin, pair);
  }

  private forcesToWrenches(): void {
    const c = this.contacts,
      { scene } = this;
    this.wrench.fill(0);
    if (this.forces.length < 3 * c.count)
      ((this.forces = new Float64Array(3 * c.dist.length)),
        (this.normalForces = new Float64Array(c.dist.length)),
        (this.sticks = new Uint8Array(c.dist.length)));
    const { vA, vB, vRel: v, f, bristleWork: work } = this;
    work?.match(c, this.body);
    let regime = 0;
    for (let k = 0; k < c.count; k++) {
      const [i, j] = scene.pairs[c.pair[k]];
      const bA = scene.geometries[i].body,
        bB = scene.geometries[j].body;
      const { p, n } = this;
      for (let q = 0; q < 3; q++) ((p[q] = c.point[3 * k + q]), (n[q] = c.normal[3 * k + q]));
      (this.pointVelocity(vA, bA, p), this.pointVelocity(vB, bB, p));
      for (let q = 0; q < 3; q++) v[q] = vB[q] - vA[q];
      const material = scene.materials[c.pair[k]];
      this.normalForces[k] = work
        ? elastoPlasticForce(f, work.next, NEXT_STRIDE * k, material, c.dist[k], n, v, work.deflection(k, bA, bB, this.body))
        : contactForce(f, material, c.dist[k], n, v, scene.slipSpeed);
      this.forces.set(f, 3 * k);
      this.sticks[k] = 0;
      if (this.normalForces[k] > 0) {
        this.sticks[k] = (work ? work.next[NEXT_STRIDE * k + 3] === 0 || this.sticking(c.pair[k], n, v, 0) : this.sticking(c.pair[k], n, v)) ? 1 : 0;
        regime = Math.imul(regime ^ (2 * c.pair[k] + this.sticks[k] + 1), 0x9e3779b1);
      }
      (this.addWrench(bB, p, f, 1), this.addWrench(bA, p, f, -1));
    }
    this.regime = regime;
    if (this.pairRecords) fillPairRecords(this.pairRecords, this.pairNormals!, c, this.forces, this.normalForces);
  }

  /**
   * The tangential effective mass m_t of contact k of the last apply() at (t, x) along the unit
   * direction e: 1 / (e . da), da the change of the contact point's relative acceleration under a
   * unit force pair +e on B, -e on A (the Delassus operator's diagonal, by two evaluations: the
   * accelerations are linear in the forces). The inputs are restored after.
   */
  tangentialMass(k: number, t: number, x: Float64Array, e: ArrayLike<number>): number {
    const c = this.contacts,
      [i, j] = this.scene.pairs[c.pair[k]];
    const bodies = [this.scene.geometries[i].body, this.scene.geometries[j].body];
    const p = c.point.subarray(3 * k, 3 * k + 3);
    const accel = () => {
      this.state.derivatives(t, x, this.scratch);
      return bodies.map((b) => (b < 0 ? 0 : this.pointAcceleration(b, p, e)));
    };
    const before = accel();
    const saved = Float64Array.from(this.state.u);
    bodies.forEach((b, side) => {
      if (b < 0) return;
      const sign = side === 1 ? 1 : -1,
        at = 6 * b,
        o = BODY_STRIDE * b,
        u = this.state.u,
        ix = this.inputs;
      const dx = p[0] - this.body[o + 9],
        dy = p[1] - this.body[o + 10],
        dz = p[2] - this.body[o + 11];
      const w = [e[0], e[1], e[2], dy * e[2] - dz * e[1], dz * e[0] - dx * e[2], dx * e[1] - dy * e[0]];
      for (let q = 0; q < 6; q++) u[ix[at + q]] += sign * w[q];
    });
    const after = accel();
    this.state.u.set(saved);
    this.state.derivatives(t, x, this.scratch);
    return 1 / (after[1] - before[1] - (after[0] - before[0]));
  }

  /** e . (a + z x (p - r)) of body b's frame_a (the part of its point's acceleration that forces change) */
  private pointAcceleration(b: number, p: ArrayLike<number>, e: ArrayLike<number>): number {
    const read = (this.accelerations ??= this.scene.bodies.flatMap((n) =>
      ['a', 'z'].flatMap((q) => [1, 2, 3].map((i) => this.state.reader(`${n}.frame_a.${q}[${i}]`))),
    ));
    const x = new Float64Array(0),
      at = 6 * b,
      o = BODY_STRIDE * b;
    const a = [0, 1, 2].map((i) => read[at + i](x)),
      z = [0, 1, 2].map((i) => read[at + 3 + i](x));
    const dx = p[0] - this.body[o + 9],
      dy = p[1] - this.body[o + 10],
      dz = p[2] - this.body[o + 11];
    const ap = [a[0] + z[1] * dz - z[2] * dy, a[1] + z[2] * dx - z[0] * dz, a[2] + z[0] * dy - z[1] * dx];
    return ap[0] * e[0] + ap[1] * e[1] + ap[2] * e[2];
  }

  /**
   * Does the pair's contact stick: its slip below `below` (STICK_SLIP v_s; elasto-plastic friction: 0, it
   * tells sticking by its cone), or reversed since the pair's last
   * evaluation (a fixed step too large for the friction's stiffness makes it chatter about zero at
   * slips far above v_s, where the law looks soft; the reversal gives it away)
   */
  private sticking(pair: number, n: ArrayLike<number>, v: ArrayLike<number>, below = STICK_SLIP * this.scene.slipSpeed): boolean {
    const vn = n[0] * v[0] + n[1] * v[1] + n[2] * v[2],
      last = this.lastSlip,
      at = 3 * pair;
    const tx = v[0] - vn * n[0],
      ty = v[1] - vn * n[1],
      tz = v[2] - vn * n[2];
    const reversed = tx * last[at] + ty * last[at + 1] + tz * last[at + 2] < 0;
    ((last[at] = tx), (last[at + 1] = ty), (last[at + 2] = tz));
    return reversed || Math.hypot(tx, ty, tz) < below;
  }

  /** the velocity of body b's material point at p: v + w x (p - r); the world's: 0 */
  private pointVelocity(out: Float64Array, b: number, p: ArrayLike<number>): void {
    if (b < 0) return void out.fill(0);
    const s = this.body,
      o = BODY_STRIDE * b;
    const dx = p[0] - s[o + 9],
      dy = p[1] - s[o + 10],
      dz = p[2] - s[o + 11];
    out[0] = s[o + 12] + s[o + 16] * dz - s[o + 17] * dy;
    out[1] = s[o + 13] + s[o + 17] * dx - s[o + 15] * dz;
    out[2] = s[o + 14] + s[o + 15] * dy - s[o + 16] * dx;
  }

  /** sign * f at p added to body b's wrench about its frame_a origin: F += f, T += (p - r) x f */
  private addWrench(b: number, p: ArrayLike<number>, f: ArrayLike<number>, sign: number): void {
    if (b < 0) return;
    const s = this.body,
      o = BODY_STRIDE * b,
      w = this.wrench,
      a = 6 * b;
    const dx = p[0] - s[o + 9],
      dy = p[1] - s[o + 10],
      dz = p[2] - s[o + 11];
    const fx = sign * f[0],
      fy = sign * f[1],
      fz = sign * f[2];
    ((w[a] += fx), (w[a + 1] += fy), (w[a + 2] += fz));
    ((w[a + 3] += dy * fz - dz * fy), (w[a + 4] += dz * fx - dx * fz), (w[a + 5] += dx * fy - dy * fx));
  }
}
