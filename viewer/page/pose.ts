// Kinematic posing: the mechanism at joint coordinates the user chooses,
// with its kinematic loops closed. The compiled model's own position-level
// solve does it: one evaluation of the derivatives at a state whose joint
// coordinates are the sliders' values runs the loop's Newton iteration
// (codegen/newton.ts, warm-started from the last pose in this run state),
// and the frames' R and r signals then hold the closed pose. Only state
// joints are coordinates: the loop determines the others. A free or ball
// joint's orientation is its four states Q[1..4] (the panel poses them by
// roll, pitch and yaw: rotation.ts), a free joint's position its r[1..3].
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import type { ModelState } from '../../src/codegen/state.ts';
import { KronError, UsageError } from '../../src/errors.ts';
import { packPoses, poseSignalNames } from '../../src/io/poses.ts';
import type { Scene } from '../../src/io/types.ts';
import { type Quaternion, unitOrUndefined } from './rotation.ts';

/** a state that is a scalar position coordinate: a joint's q (or q[k] of a joint with several) */
const COORDINATE = /\.q(\[\d+\])?$/;
/** a free joint's position coordinates */
const POSITION = /\.r\[[123]\]$/;
/** the first of a free or ball joint's quaternion states */
const QUATERNION = /\.Q\[1\]$/;

export interface Coordinate {
  name: string;
  /** the joint it belongs to */
  joint: string;
  /** a prismatic joint's q and a free joint's r are lengths (m), others angles (rad) */
  length: boolean;
}

/** a free or ball joint's orientation: its states Q[1..4] = (w, x, y, z) */
export interface Orientation {
  joint: string;
  states: [string, string, string, string];
}

export class Poser {
  readonly coordinates: Coordinate[];
  readonly orientations: Orientation[];
  private readonly state: ModelState;
  private readonly x: Float64Array;
  private readonly dx: Float64Array;
  private readonly poseNames: string[];

  constructor(
    readonly compiled: CompiledModel,
    scene: Scene,
  ) {
    this.state = compiled.createState();
    this.x = this.state.x0();
    this.dx = new Float64Array(this.x.length);
    this.poseNames = poseSignalNames(scene.frames, (n) => compiled.hasSignal(n));
    const types = new Map(scene.joints.map((j) => [j.name, j.type]));
    const states = new Set(compiled.stateNames);
    this.coordinates = compiled.stateNames.flatMap((name) => {
      if (COORDINATE.test(name)) {
        const joint = name.replace(COORDINATE, '');
        return [{ name, joint, length: types.get(joint) === 'prismatic' }];
      }
      const joint = name.replace(POSITION, '');
      return POSITION.test(name) && types.get(joint) === 'freejoint' ? [{ name, joint, length: true }] : [];
    });
    this.orientations = compiled.stateNames
      .filter((n) => QUATERNION.test(n))
      .flatMap((first) => {
        const joint = first.replace(QUATERNION, '');
        const Q = [1, 2, 3, 4].map((k) => `${joint}.Q[${k}]`) as Orientation['states'];
        return Q.every((n) => states.has(n)) ? [{ joint, states: Q }] : [];
      });
  }

  /** every state's name, in the compiled model's order */
  get states(): readonly string[] {
    return this.compiled.stateNames;
  }

  /**
   * (state values by name: the coordinates, and the recorded states where
   * known; the others keep their last value) => the frames' poses, 7 numbers
   * each (the layout of Poses). A loop that does not close throws the
   * compiled model's typed error (the caller keeps the last pose).
   */
  pose(values: Readonly<Record<string, number>>, t = 0): Float32Array {
    const x = this.x.map((v, i) => values[this.compiled.stateNames[i]] ?? v);
    this.normaliseOrientations(x);
    this.x.set(x);
    this.state.derivatives(t, this.x, this.dx);
    const columns = this.poseNames.map((n) => [this.state.signal(n)]);
    return Float32Array.from(packPoses(columns, 1).data);
  }

  /** each Q in x made a unit quaternion (the model divides by |Q|); one of no length is a UsageError naming it */
  private normaliseOrientations(x: Float64Array): void {
    for (const { joint, states } of this.orientations) {
      const at = states.map((n) => this.compiled.stateNames.indexOf(n));
      const Q = at.map((i) => x[i]) as Quaternion;
      const unit = unitOrUndefined(Q);
      if (!unit) {
        throw new UsageError(`${joint}.Q = (${Q.join(', ')}) is not an orientation: a quaternion of no length`, {
          component: joint,
          variables: states,
          hint: 'give Q = (w, x, y, z) not all zero (it is normalised), or pose it by roll, pitch and yaw',
        });
      }
      at.forEach((i, k) => (x[i] = unit[k]));
    }
  }
}

/** a failed pose as text for the page; other errors are bugs and go on */
export function poseFailure(e: unknown): string {
  if (e instanceof KronError) return e.message;
  throw e;
}
