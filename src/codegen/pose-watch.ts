// The singular poses a run must not reach or pass (Component.singularPoses):
// for each, a state whose cosine vanishes there, such as the middle angle of
// a Cardan joint at gimbal lock, and the states whose rates grow as one over
// that cosine near it (the joint's outer angles). A fixed step through or
// near such a pose gains or loses energy without a word (a free link on a
// Cardan joint passing 90 degrees at h = 1e-3: +45%; one passing within
// cos q[2] = 0.013 of it at h = 5e-3: +37%). At every evaluation:
// - the cosine is watched as a kinematic loop's determinant is
//   (runtime/newton.ts, signWatch): a sign that changes between two
//   evaluations, or whose linear trend in time does, is a pose passed or
//   come near within one step;
// - within |cos| < NEAR_POSE the fast states must move at most RESOLVED
//   rad in the last span between evaluation times (half an RK4 step).
// An evaluation that fails as singular next to such a pose is reported as
// the pose.
import { SimulationError } from '../errors.ts';
import { type Workspace, doubles, signWatch } from './runtime.ts';
import type { SignalReader } from './state.ts';

/** a singular pose as compiled data: the states by name, the component and its words */
export interface WatchedPose {
  readonly state: string;
  readonly rates: readonly string[];
  readonly component: string;
  readonly what: string;
  readonly hint: string;
}

/** a time without the rounding of its sums (0.034999999999999996: 0.035), for messages */
export const shortTime = (t: number) => Number(t.toPrecision(12));

/** a failed evaluation within this |cos| of a pose is the pose's (a Cardan joint's mass matrix is singular there) */
const SINGULAR = 1e-3;
/** where the fast states must be resolved: |cos| below this (the rates are 10 times the body's angular speed) */
const NEAR_POSE = 0.1;
/**
 * The most a fast state may move in one span between evaluation times:
 * RK4's error per step grows as the fifth power of it; 0.05 rad a half step
 * keeps a free link's energy to 1e-6 through its closest approach.
 */
const RESOLVED = 0.05;

interface Readers {
  readonly angle: SignalReader;
  readonly rates: readonly SignalReader[];
}

export class PoseWatch {
  /** signWatch's records, 6 slots per pose: [t1, cos at t1, t0, cos at t0, start, least |cos| at t1] */
  private readonly record: Workspace;
  private readonly slots: Int32Array[];

  constructor(
    private readonly poses: readonly WatchedPose[],
    private readonly readers: readonly Readers[],
  ) {
    this.record = doubles(6 * poses.length);
    this.slots = poses.map((_, i) => Int32Array.from({ length: 6 }, (_, k) => 6 * i + k));
  }

  /** throws the pose's error when a cosine changed sign, or its trend did, or a fast state outran the step near it */
  check(t: number, x: Float64Array): void {
    for (let i = 0; i < this.poses.length; i++) {
      const R = this.record,
        since = R[6 * i],
        c = Math.cos(this.readers[i].angle(x));
      if (signWatch(R, this.slots[i], t, c) !== 0)
        throw this.error(i, since === t ? `at time ${shortTime(t)}` : `between time ${shortTime(Math.min(since, t))} and ${shortTime(Math.max(since, t))}`);
      const span = R[6 * i] - R[6 * i + 2]; // the last span between evaluation times
      if (Math.abs(c) < NEAR_POSE && span > 0) {
        const fastest = Math.max(...this.readers[i].rates.map((r) => Math.abs(r(x))));
        if (fastest * span > RESOLVED)
          throw this.error(
            i,
            `at time ${shortTime(t)}, with a step too long for it: the fast angles turn at ${fastest.toPrecision(3)} rad/s, ${(fastest * span).toPrecision(2)} rad between evaluations ${span.toPrecision(3)} s apart (at most ${RESOLVED})`,
          );
      }
    }
  }

  /** the error of a pose within SINGULAR of x, for an evaluation at x that failed (else undefined) */
  near(t: number, x: Float64Array, cause: Error): SimulationError | undefined {
    const i = this.readers.findIndex((r) => Math.abs(Math.cos(r.angle(x))) < SINGULAR);
    return i < 0 ? undefined : this.error(i, `at time ${shortTime(t)} (${cause.message})`);
  }

  private error(i: number, when: string): SimulationError {
    const p = this.poses[i];
    return new SimulationError(`${p.component} ${p.what}, ${when}`, { component: p.component, variables: [p.state, ...p.rates], hint: p.hint });
  }
}
