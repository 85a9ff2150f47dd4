// Linearization at an operating point: x' = A x + B u, y = C x + D u (all
// as deviations from the point), by the implicit function theorem on the
// flat equations (implicit.ts): A and B are the der(x) rows of dz/dx and
// dz/du, C and D the outputs' rows. Kinematic loops are closed, not cut
// open: the states are the state joints' coordinates and the joints the
// loop determines follow through the constraint equations.
import { UsageError, ModelError } from '../errors.ts';
import { didYouMean } from '../suggest.ts';
import { withLocalTable } from '../expr/index.ts';
import type { Model } from '../model/index.ts';
import { type CompileOptions, compile } from '../compile.ts';
import { CompiledModel } from '../codegen/compiled.ts';
import { type OperatingPoint, type Sensitivities, sensitivities, solvePoint } from './implicit.ts';
import { generatedLinearization } from './linearize-generated.ts';
import { onTangentSpace } from './linearize-tangent.ts';
import { treeLinearization } from './linearize-tree.ts';
import type { ModelState } from '../codegen/state.ts';
import { type Eigenvalue, eigenvalues } from './eigenvalues.ts';

/** what to compile (a model) and where to linearize */
export interface PointOptions extends Omit<CompileOptions, 'start'> {
  /** states (and input values) at the operating point by name, e.g. { 'j1.q': 0.1, 'j1.qd': 0, 'j1.tau': 0 }; states not named take their start values */
  at?: Readonly<Record<string, number>>;
  /** first guesses of unknowns (the joints a loop determines), as compile's start; a state named here is the point's too */
  start?: Readonly<Record<string, number>>;
  /** time at the point (default 0) */
  time?: number;
}

export interface LinearizeOptions extends PointOptions {
  /** the inputs u, by name (default: every input of the model, in its order) */
  inputs?: readonly string[];
  /** output signals y, by name (any signal: frame positions, joint coordinates, forces...) */
  outputs?: readonly string[];
  /**
   * 'generated': tangents of the model's straight-line code, generated on
   * the first call for a compiled model and kept (linearize-generated.ts);
   * 'symbolic': the implicit function theorem on the flat equations
   * (implicit.ts). Unset: symbolic on the first call, generated from the
   * second call with the same compiled model, inputs and outputs on, where
   * the model allows it (no loop solved at run time); else symbolic.
   * 'analytical': a revolute/prismatic tree's analytical derivatives
   * (linearize-tree.ts; no outputs), which an unset method takes from the
   * first call where they apply.
   */
  method?: 'analytical' | 'generated' | 'symbolic';
  /**
   * a free or ball joint's quaternion: 'tangent' (the default) replaces its
   * four states Q[1..4] by the rotation vector theta[1..3] about frame_b's
   * axes (A of a floating model 2 n_v x 2 n_v, linearize-tangent.ts);
   * 'states' keeps the four
   */
  quaternions?: 'tangent' | 'states';
}

/** x' = A x + B u, y = C x + D u about an operating point, with its eigenvalues */
export interface Linearization {
  /** the model's name */
  model: string;
  /** the time of the operating point */
  time: number;
  /** state names: the columns of A and C, the rows of A and B */
  states: string[];
  /** input names: the columns of B and D */
  inputs: string[];
  /** output names: the rows of C and D */
  outputs: string[];
  /** the operating point: states, inputs, outputs, and x' = f(x, u) there (zero at an equilibrium) */
  x: number[];
  /** the inputs' values at the point */
  u: number[];
  /** the outputs' values at the point */
  y: number[];
  /** x' = f(x, u) at the point */
  dx: number[];
  /** dx'/dx, states x states */
  A: number[][];
  /** dx'/du, states x inputs */
  B: number[][];
  /** dy/dx, outputs x states */
  C: number[][];
  /** dy/du, outputs x inputs */
  D: number[][];
  /** how A, B, C, D were computed: by a tree's analytical derivatives, by generated tangent code or symbolically (LinearizeOptions.method) */
  method: 'analytical' | 'generated' | 'symbolic';
  /** eigenvalues of A, complex pairs adjacent, by real part descending (eigenvalues.ts) */
  eigenvalues: Eigenvalue[];
  /** milliseconds: compile, and the linearization itself */
  compileMs: number;
  /** milliseconds the linearization itself took */
  linearizeMs: number;
}

/** (model or compiled model, options) => A, B, C, D at the operating point */
export function linearize(model: Model | CompiledModel, options: LinearizeOptions = {}): Linearization {
  return withLocalTable(() => {
    const { compiled, point, compileMs, state } = operatingPoint(model, options);
    const t0 = performance.now();
    const inputs = (options.inputs ?? compiled.generated.layout.inputs).map((name) => inputIndex(compiled, name));
    const outputs = [...(options.outputs ?? [])];
    for (const name of outputs) checkSignal(compiled, name);
    const solved = solvePoint(compiled, point, state);
    const tree =
      options.method === undefined || options.method === 'analytical'
        ? treeLinearization(compiled, solved.state, point.x, point.t, solved.dx, inputs, outputs)
        : `the ${options.method} method was asked for`;
    if (typeof tree === 'string' && options.method === 'analytical') {
      throw new UsageError(`linearize of ${compiled.report.model} by its analytical tree derivatives is not possible: ${tree}`, {
        hint: 'leave method unset: the generated tangents or the symbolic path answer where the analytical recursions do not apply',
      });
    }
    const fast =
      typeof tree !== 'string'
        ? tree
        : options.method === 'symbolic'
          ? 'the symbolic method was asked for'
          : generatedLinearization(compiled, solved.state, point.x, point.t, solved.dx, inputs, outputs, options.method === 'generated');
    if (typeof fast === 'string' && options.method === 'generated') {
      throw new UsageError(`linearize of ${compiled.report.model} by generated code is not possible: ${fast}`, {
        hint: "leave method unset (or 'symbolic'): the symbolic linearization handles loops",
      });
    }
    let A: number[][], B: number[][], C: number[][], D: number[][], y: number[];
    if (typeof fast === 'string') {
      const s = sensitivities(compiled, point, inputs, solved);
      const n = point.x.length;
      const split = (row: Float64Array) => [[...row.subarray(0, n)], [...row.subarray(n)]];
      [A, B] = transposeSplit(compiled.stateNames.map((x) => split(derivativeRow(s, x))));
      [C, D] = transposeSplit(outputs.map((y) => split(s.row(y))));
      y = outputs.map((name) => s.value(name));
    } else {
      ({ A, B, C, D } = fast);
      y = outputs.map((name) => solved.state.signal(name));
    }
    const groups = options.quaternions === 'states' ? [] : (compiled.data.unitNorms ?? []);
    const lin: Linearization = {
      model: compiled.report.model,
      time: point.t,
      states: [...compiled.stateNames],
      inputs: inputs.map((k) => compiled.generated.layout.inputs[k]),
      outputs,
      x: [...point.x],
      u: inputs.map((k) => point.u[k]),
      y,
      dx: [...solved.dx],
      A,
      B,
      C,
      D,
      method: typeof tree !== 'string' ? 'analytical' : typeof fast === 'string' ? 'symbolic' : 'generated',
      eigenvalues: groups.length ? [] : eigenvalues(A),
      compileMs,
      linearizeMs: 0,
    };
    return { ...onTangentSpace(lin, groups), linearizeMs: Math.round((performance.now() - t0) * 100) / 100 };
  });
}

const transposeSplit = (rows: number[][][]): [number[][], number[][]] => [rows.map((r) => r[0]), rows.map((r) => r[1])];

/** d der(x) / d(x, u): the derivative's own row (an unknown of the equations) */
function derivativeRow(s: Sensitivities, state: string): Float64Array {
  return s.row(`der(${state})`);
}

/** the compiled model and the point (t, x, u), from a model or a compiled one; names checked */
export function operatingPoint(
  model: Model | CompiledModel,
  options: PointOptions,
): { compiled: CompiledModel; point: OperatingPoint; compileMs: number; state: ModelState } {
  const t0 = performance.now();
  let compiled: CompiledModel;
  if (model instanceof CompiledModel) {
    if (options.mode || options.tear || options.foldParameters !== undefined || options.chunk || options.share !== undefined) {
      throw new UsageError('compile options were given with a compiled model', {
        hint: 'pass the model itself to compile it with these options, or compile it with them first (parameters kept symbolic, foldParameters: false, may change here)',
      });
    }
    compiled = model;
  } else {
    compiled = compile(model, options);
  }
  const compileMs = model instanceof CompiledModel ? 0 : Math.round((performance.now() - t0) * 100) / 100;
  const t = options.time ?? 0;
  if (!Number.isFinite(t)) throw new UsageError(`time of the operating point set to ${t}`, { hint: 'use a finite number' });
  // a compiled model given with start values: states start there, unknowns take them as first guesses;
  // its parameters change only where they were kept symbolic (a folded one is a UsageError, ModelState.setParameter)
  const guesses = model instanceof CompiledModel ? options.start : undefined;
  const parameters = model instanceof CompiledModel ? options.parameters : undefined;
  const state = compiled.createState({ start: guesses, parameters });
  const x = state.x0();
  const u = Float64Array.from(state.u);
  for (const [name, value] of Object.entries(options.at ?? {})) {
    if (!Number.isFinite(value)) throw new ModelError(`${name} set to ${value} at the operating point`, { variables: [name], hint: 'use a finite number' });
    const source = compiled.hasSignal(name) ? compiled.signalSource(name) : undefined;
    if (source?.from === 'x') x[source.index] = (value - source.offset) / source.sign;
    else if (source?.from === 'u') u[source.index] = (value - source.offset) / source.sign;
    else throw notAState(compiled, name);
  }
  return { compiled, point: { x, u, t, guesses, parameters }, compileMs, state };
}

function notAState(compiled: CompiledModel, name: string): ModelError {
  const inputs = compiled.generated.layout.inputs;
  const known = compiled.hasSignal(name) ? `${name} is not a state or an input (the equations determine it)` : `no state or input named ${name}`;
  return new ModelError(`${known}: the operating point is given by the states and inputs`, {
    variables: [name],
    hint: `${compiled.hasSignal(name) ? '' : didYouMean(name, [...compiled.stateNames, ...inputs])}states: ${list(compiled.stateNames)}; inputs: ${list(inputs)}${compiled.hasSignal(name) ? '; a first guess of an unknown goes to start (kron: --start)' : ''}`,
  });
}

function inputIndex(compiled: CompiledModel, name: string): number {
  const k = compiled.generated.layout.inputs.indexOf(name);
  if (k < 0)
    throw new ModelError(`no input named ${name}`, {
      variables: [name],
      hint: `${didYouMean(name, compiled.generated.layout.inputs)}inputs: ${list(compiled.generated.layout.inputs)}`,
    });
  return k;
}

function checkSignal(compiled: CompiledModel, name: string): void {
  if (!compiled.hasSignal(name)) {
    throw new ModelError(`no signal named ${name} to linearize as an output`, {
      variables: [name],
      hint: `${didYouMean(name, compiled.signalNames())}signals are variables by hierarchical name, e.g. ${list(compiled.signalNames().slice(0, 6))}; kron compile --json lists the unknowns`,
    });
  }
}

const list = (names: readonly string[], n = 20) =>
  names.length > n ? `${names.slice(0, n).join(', ')}, ... (${names.length} in all)` : names.join(', ') || '(none)';
