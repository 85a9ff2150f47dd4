// Kinematic posing: the mechanism at joint coordinates the user chooses,
// with its kinematic loops closed. The compiled model's own position-level
// solve does it: one evaluation of the derivatives at a state whose joint
// coordinates are the sliders' values runs the loop's Newton iteration
// (codegen/newton.ts, warm-started from the last pose in this run state),
// and the frames' R and r signals then hold the closed pose. Only state
// joints are coordinates: the loop determines the others.
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import type { ModelState } from '../../src/codegen/state.ts';
import { KronError } from '../../src/errors.ts';
import { packPoses, poseSignalNames } from '../../src/io/poses.ts';
import type { Scene } from '../../src/io/types.ts';

/** a state that is a position coordinate: a joint's q (or q[k] of a joint with several) */
const COORDINATE = /\.q(\[\d+\])?$/;

export interface Coordinate {
  name: string;
  /** the joint it belongs to: a prismatic joint's coordinate is a length, others are angles */
  joint: string;
}

export class Poser {
  readonly coordinates: Coordinate[];
  private readonly state: ModelState;
  private readonly x: Float64Array;
  private readonly dx: Float64Array;
  private readonly poseNames: string[];

  constructor(readonly compiled: CompiledModel, scene: Scene) {
    this.state = compiled.createState();
    this.x = this.state.x0();
    this.dx = new Float64Array(this.x.length);
    this.poseNames = poseSignalNames(scene.frames, (n) => compiled.hasSignal(n));
    this.coordinates = compiled.stateNames.filter((n) => COORDINATE.test(n)).map((name) => ({ name, joint: name.replace(COORDINATE, '') }));
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
    this.compiled.stateNames.forEach((n, i) => (this.x[i] = values[n] ?? this.x[i]));
    this.state.derivatives(t, this.x, this.dx);
    const columns = this.poseNames.map((n) => [this.state.signal(n)]);
    return Float32Array.from(packPoses(columns, 1).data);
  }
}

/** a failed pose as text for the page; other errors are bugs and go on */
export function poseFailure(e: unknown): string {
  if (e instanceof KronError) return e.message;
  throw e;
}
