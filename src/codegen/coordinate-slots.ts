// Where a model compiled for the inverse problem keeps each generalized
// coordinate: q and qd are states, qdd an input, tau a signal (an unknown,
// or an alias of one). Read once per run of inverse dynamics and per
// generated tangent code.
import type { CompiledModel, SignalSource } from './compiled.ts';

/** where each coordinate's q, qd (states), qdd (an input) and tau (a signal) are, in the order of model.coordinates */
export interface CoordinateSlots {
  readonly qAt: Int32Array;
  readonly qdAt: Int32Array;
  readonly qddAt: Int32Array;
  readonly tauFrom: readonly SignalSource[];
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
  };
}
