// src/bench/agreement: Kron's accelerations against MuJoCo's qacc at the same
// state, the check that the MJCF peer (mjcf.ts) runs the same model before it
// is timed, and the tests' comparison with an independent engine.
//   (compiled model, written model, MuJoCo peer, state, inputs) =>
//   both accelerations in MuJoCo's qvel order (mjcf-state.ts maps the states)
import type { CompiledModel } from '../codegen/compiled.ts';
import type { ModelState } from '../codegen/state.ts';
import type { Mjcf } from './mjcf.ts';
import { kronAccelerations, mujocoForces, mujocoState, velocityStates } from './mjcf-state.ts';
import type { MujocoPeer } from './mujoco.ts';

export interface Accelerations {
  /** Kron's der(qd), der(v), der(w) in qvel order */
  kron: number[];
  /** MuJoCo's qacc turned into Kron's coordinates, the same order */
  mujoco: number[];
  /** the Kron state names, the same order */
  names: string[];
}

// (compiled model, seeded uniform generator) => a state: joint angles in [-pi, pi), everything else in [-1, 1), quaternions of unit length
export function randomState(state: ModelState, rand: () => number): Float64Array {
  const names = state.model.stateNames;
  const x = Float64Array.from(names, (n) => (2 * rand() - 1) * (n.endsWith('.q') ? Math.PI : 1));
  state.normalize(x);
  return x;
}

// (model state with its inputs set, written model, peer, x) => Kron's and MuJoCo's accelerations at x
export function accelerationsAt(state: ModelState, doc: Mjcf, peer: MujocoPeer, x: Float64Array): Accelerations {
  const c: CompiledModel = state.model;
  const index = (name: string) => {
    const i = c.stateNames.indexOf(name);
    if (i < 0) throw new Error(`the MJCF of ${doc.model} has a coordinate ${name} that is not a state of the Kron model`);
    return i;
  };
  const dx = new Float64Array(x.length);
  state.derivatives(0, x, dx);
  const { qpos, qvel } = mujocoState(doc, (n) => x[index(n)]);
  const inputs = c.generated.layout.inputs;
  const qfrc = mujocoForces(doc, (n) => (inputs.includes(n) ? state.u[inputs.indexOf(n)] : 0));
  const theirs = kronAccelerations(doc, peer.accelerations(qpos, qvel, qfrc));
  const names = velocityStates(doc);
  return { names, kron: names.map((n) => dx[index(n)]), mujoco: names.map((n) => theirs.get(n)!) };
}

/** max |mujoco - kron| / max |kron|: the difference relative to the largest acceleration */
export function relativeDifference({ kron, mujoco }: Accelerations): number {
  const scale = Math.max(...kron.map(Math.abs));
  return Math.max(...kron.map((k, i) => Math.abs(mujoco[i] - k))) / (scale || 1);
}
