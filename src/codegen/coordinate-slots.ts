// Where a model compiled for the inverse problem keeps each generalized
// coordinate: q and qd are states, qdd an input, tau a signal (an unknown,
// or an alias of one). Read once per run of inverse dynamics and per
// generated tangent code.
//
// A free or ball joint's rotation has no position of its own: its three
// coordinates share the quaternion Q (four states), so the positions q
// (n_q of them, `positions`) outnumber the coordinates (n_v) by one per
// such joint, as Pinocchio's q and v; the quaternion's four numbers stand
// in q where its joint's first rotation would.
import type { CompiledModel, SignalSource } from './compiled.ts';
import type { CoordinateNames } from './inverse.ts';

/** where each coordinate's q, qd (states), qdd (an input) and tau (a signal) are, in the order of model.coordinates */
export interface CoordinateSlots {
  /** each coordinate's q (a quaternion joint's rotation: Q[axis + 2], a name only) */
  readonly qAt: Int32Array;
  readonly qdAt: Int32Array;
  readonly qddAt: Int32Array;
  readonly tauFrom: readonly SignalSource[];
  /** the state of each entry of q (n_q; positionNames' order) */
  readonly positionAt: Int32Array;
  /** per coordinate, a quaternion joint's rotation: the states of its Q[1..4] and its axis */
  readonly quaternion: readonly ({ readonly Q: Int32Array; readonly axis: number } | undefined)[];
}

/** the names of the entries of q: each coordinate's q, a quaternion's four Q once in place of its joint's rotations */
export function positionNames(coordinates: readonly CoordinateNames[]): string[] {
  return coordinates.flatMap((c) => (!c.quaternion ? [c.q] : c.quaternion.axis === 0 ? [...c.quaternion.Q] : []));
}

export function coordinateSlots(model: CompiledModel): CoordinateSlots {
  const k = model.coordinates;
  const source = (name: string) => model.signalSource(name);
  const index = (name: string, from: SignalSource['from']) => {
    const s = source(name);
    if (s.from !== from || s.sign !== 1 || s.offset !== 0) throw new Error(`inverse: ${name} is not ${from}[i] (${JSON.stringify(s)})`);
    return s.index;
  };
  return {
    qAt: Int32Array.from(k, (c) => index(c.q, 'x')),
    qdAt: Int32Array.from(k, (c) => index(c.qd, 'x')),
    qddAt: Int32Array.from(k, (c) => index(c.qdd, 'u')),
    tauFrom: k.map((c) => source(c.tau)),
    positionAt: Int32Array.from(positionNames(k), (name) => index(name, 'x')),
    quaternion: k.map((c) => c.quaternion && { Q: Int32Array.from(c.quaternion.Q, (name) => index(name, 'x')), axis: c.quaternion.axis }),
  };
}
