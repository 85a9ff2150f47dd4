// The implicit function theorem on the flat equations: with all equations
// F(z, x, u, t) = 0, z every unknown (der(x) and the algebraic variables,
// the joints a kinematic loop determines among them), at a consistent point
//   dz/dx = -F_z^-1 F_x,   dz/du = -F_z^-1 F_u.
// The derivatives are symbolic (expr/diff.ts) on the reduced model's
// residuals, evaluated at the point; F_z is solved block by block in BLT
// order, each block by dense LU (block-solve.ts). The point itself comes from the compiled model: its
// derivatives() and outputs passes compute every unknown at (t, x, u).
// None of this goes through the torn or relaxed solve forms, so comparing
// with finite differences of derivatives() checks one against the other.
//
// Glossary
//   z  unknowns (plan.unknowns, N), x states (n), u the chosen inputs (m)
//   S  N x (n + m) row-major: dz_i/dx_j, then dz_i/du_k (the sensitivities)
import { type Expr, type Sym, diff, evaluate, show, symsOf } from '../expr/index.ts';
import { KronError, ModelError, SimulationError } from '../errors.ts';
import { TIME, type Variable, describeEquation } from '../model/index.ts';
import type { CompiledModel, SignalSource } from '../codegen/compiled.ts';
import type { ModelState } from '../codegen/state.ts';
import { type SparseRows, blockSolve } from './block-solve.ts';

export interface OperatingPoint {
  /** the states, in the compiled model's order */
  readonly x: Float64Array;
  /** every input, in the compiled model's order */
  readonly u: Float64Array;
  readonly t: number;
  /** first guesses of unknowns by name (a loop's joints), beyond the compiled model's own */
  readonly guesses?: Readonly<Record<string, number>>;
  /** parameters of a model compiled with them kept symbolic, for this point only */
  readonly parameters?: Readonly<Record<string, number>>;
}

export interface Sensitivities {
  readonly compiled: CompiledModel;
  readonly point: OperatingPoint;
  /** x' = f(t, x, u) at the point */
  readonly dx: Float64Array;
  /** indices (into the compiled model's inputs) of the inputs differentiated by */
  readonly inputs: readonly number[];
  /** N x (n + m), row-major */
  readonly S: Float64Array;
  /** value of a signal at the point */
  value(name: string): number;
  /** d signal / d (x, u): n + m numbers */
  row(name: string): Float64Array;
}

/** residuals beyond this multiple of the terms' size: the point is not a solution of the equations */
const CONSISTENT = 1e-8;

// (compiled model, point, inputs to differentiate by) => dz/dx and dz/du of every unknown at the point
export function sensitivities(compiled: CompiledModel, point: OperatingPoint, inputs: readonly number[], solved = solvePoint(compiled, point)): Sensitivities {
  const { plan, reduced } = compiled;
  const n = plan.states.length,
    m = inputs.length,
    N = plan.unknowns.length,
    cols = n + m;
  const { state, dx } = solved;
  const values = new Map<number, number>();
  plan.states.forEach((v, i) => values.set(v.id, point.x[i]));
  plan.inputs.forEach((v, i) => values.set(v.id, point.u[i]));
  plan.parameters.forEach((v, i) => values.set(v.id, state.p[i]));
  plan.unknowns.forEach((v, i) => values.set(v.id, state.w[i]));
  values.set(TIME.id, point.t);
  const evaluate = evaluator(values);
  // columns: unknown k -> k; state j -> N + j; chosen input k -> N + n + k
  const column = new Map<number, number>();
  plan.unknowns.forEach((v, k) => column.set(v.id, k));
  plan.states.forEach((v, j) => column.set(v.id, N + j));
  inputs.forEach((k, i) => column.set(plan.inputs[k].id, N + n + i));
  const syms = new Map<number, Sym>([...plan.unknowns, ...plan.states, ...inputs.map((k) => plan.inputs[k])].map((v) => [v.id, v]));
  const Fz = { n: N, cols: [] as Int32Array[], vals: [] as Float64Array[] };
  const rhs = new Float64Array(N * cols);
  reduced.equations.forEach((eq, i) => {
    let size = 0;
    const row: number[] = [],
      entries: number[] = [];
    for (const id of symsOf(eq.residual)) {
      const c = column.get(id);
      if (c === undefined) continue;
      const d = evaluate(diff(eq.residual, syms.get(id)!));
      size += Math.abs(d * values.get(id)!);
      if (c < N) (row.push(c), entries.push(d));
      else rhs[i * cols + c - N] = -d;
    }
    Fz.cols.push(Int32Array.from(row));
    Fz.vals.push(Float64Array.from(entries));
    const r = evaluate(eq.residual);
    if (!(Math.abs(r) <= CONSISTENT * (1 + size))) {
      throw new ModelError(`the equations do not hold at the operating point: residual ${r.toExponential(3)} in ${describeEquation(eq)}`, {
        variables: [...symsOf(eq.residual)]
          .map((id) => syms.get(id) as Variable | undefined)
          .filter((v) => v !== undefined)
          .map((v) => v.name),
        hint: 'the loop may not have closed at this point: give the joints it determines better first guesses (start), or choose another operating point',
      });
    }
  });
  const S = solveColumns(compiled, Fz, rhs, cols);
  const row = (name: string) => signalRow(compiled.signalSource(name), S, N, n, inputs, cols);
  return { compiled, point, dx, inputs, S, value: (name) => state.signal(name), row };
}

/** the compiled model's evaluation at the point: every unknown in the state's workspace (a new state with the point's first guesses and parameters, or the one operatingPoint made), a failure as a typed error */
export function solvePoint(
  compiled: CompiledModel,
  point: OperatingPoint,
  state: ModelState = compiled.createState({ start: point.guesses, parameters: point.parameters }),
): { state: ModelState; dx: Float64Array } {
  state.u.set(point.u);
  const dx = new Float64Array(point.x.length);
  try {
    state.derivatives(point.t, point.x, dx);
    // the outputs pass: the unknowns the derivatives do not need
    if (compiled.plan.unknowns.length) state.signal(compiled.plan.unknowns[0].name);
  } catch (e) {
    if (!(e instanceof SimulationError)) throw e;
    throw new ModelError(`no consistent solution at the operating point: ${e.message}`, {
      variables: e.details.variables,
      hint: `${e.details.hint ?? 'choose another operating point'}; the operating point was ${pointText(compiled, point)}`,
    });
  }
  return { state, dx };
}

export function pointText(compiled: CompiledModel, point: OperatingPoint): string {
  return compiled.stateNames.map((s, i) => `${s}=${point.x[i]}`).join(', ');
}

/** one memo for every expression: the values do not change */
function evaluator(values: ReadonlyMap<number, number>): (e: Expr) => number {
  const memo = new Map<number, number>();
  return (e) =>
    evaluate(
      e,
      (sym) => {
        const v = values.get(sym.id);
        if (v === undefined) throw new KronError(`linearize: no value for ${sym.name} in ${show(e)}`);
        return v;
      },
      memo,
    );
}

// (F_z, -[F_x F_u]) => S = F_z^-1 (-[F_x F_u]); a singular F_z is a ModelError naming the unknown
function solveColumns(compiled: CompiledModel, Fz: SparseRows, rhs: Float64Array, cols: number): Float64Array {
  const S = blockSolve(Fz, rhs, cols);
  if (!(S instanceof Float64Array)) {
    const v = compiled.plan.unknowns[S.column];
    const eqs = S.equations.length
      ? S.equations.map((e) => compiled.reduced.equations[e])
      : compiled.reduced.equations.filter((eq) => symsOf(eq.residual).includes(v.id));
    throw new ModelError(`the equations do not determine ${v.name} at the operating point: their Jacobian with respect to the unknowns is singular`, {
      variables: [v.name],
      equations: eqs.map(describeEquation),
      hint: 'the linearization does not exist here (a dead point of a kinematic loop, a zero mass or inertia, a singular position): choose another operating point',
    });
  }
  return S;
}

/** d signal / d(x, u) from where the signal is read: sign * (state, chosen input or unknown) + offset */
function signalRow(s: SignalSource, S: Float64Array, N: number, n: number, inputs: readonly number[], cols: number): Float64Array {
  const out = new Float64Array(cols);
  if (s.from === 'x') out[s.index] = s.sign;
  else if (s.from === 'u') {
    const k = inputs.indexOf(s.index);
    if (k >= 0) out[n + k] = s.sign;
  } else if (s.from === 'w' && s.index < N) {
    for (let j = 0; j < cols; j++) out[j] = s.sign * S[s.index * cols + j];
  }
  return out;
}
