// A compiled model: the generated derivatives function with its workspace,
// start values, typed access to every signal, and run-time error reporting.
import { show } from '../expr/index.ts';
import { SimulationError } from '../errors.ts';
import { type ReducedModel, TIME, type Variable } from '../model/index.ts';
import { FALLBACK_BLOCKS, type SolvePlan, type Target } from '../structure/plan-types.ts';
import type { Generated } from './generate.ts';
import type { CompileReport } from '../report.ts';

type Derivatives = ((t: number, x: Float64Array, dx: Float64Array, u: Float64Array, p: Float64Array, w: Float64Array) => void) & {
  outputs: (t: number, x: Float64Array, u: Float64Array, p: Float64Array, w: Float64Array) => void;
};
type Fail = (kind: string, block: number, t: number, residual: number) => never;

/** derivatives() computed NaN or an infinity (simulate() names the step it happened in) */
export class NonFiniteError extends SimulationError {}

export class CompiledModel {
  /** workspace: unknowns and temporaries, kept between calls (Newton warm start) */
  readonly w: Float64Array;
  readonly u: Float64Array;
  readonly p: Float64Array;
  readonly stateNames: readonly string[];
  private readonly fn: Derivatives;
  private readonly read = new Map<string, (x: Float64Array) => number>();
  private lastX: Float64Array;
  private lastT = 0;
  /** outputs() has not run since the last derivatives() */
  private stale = true;

  constructor(
    readonly plan: SolvePlan,
    readonly reduced: ReducedModel,
    readonly generated: Generated,
    /** the compile report (kron compile --json) */
    readonly report: CompileReport,
    /** the generated code as a readable ES module */
    readonly source: () => string,
  ) {
    const { layout } = generated;
    this.stateNames = layout.states;
    this.w = new Float64Array(layout.workspace.length);
    this.u = Float64Array.from(plan.inputs, (v) => v.start ?? 0);
    this.p = Float64Array.from(plan.parameters, (v) => v.value!);
    plan.unknowns.forEach((v, i) => (this.w[i] = this.start(v)));
    this.lastX = this.x0();
    this.fn = new Function('fail', generated.body)(this.fail) as Derivatives;
    this.buildReaders();
  }

  /** start value of a variable, carried over from its aliases if it has none itself */
  private start(v: Variable): number {
    return v.start ?? this.reduced.starts.get(v.id) ?? 0;
  }

  /** the state vector at the start values */
  x0(): Float64Array {
    return Float64Array.from(this.plan.states, (v) => this.start(v));
  }

  /** dx = f(t, x); afterwards every signal holds its value at (t, x) */
  derivatives(t: number, x: Float64Array, dx: Float64Array): void {
    this.lastX = x;
    this.lastT = t;
    this.stale = true;
    this.fn(t, x, dx, this.u, this.p, this.w);
  }

  /** compute the signals the derivatives do not need, once per derivatives() call */
  private refresh(): void {
    if (!this.stale) return;
    this.stale = false;
    this.fn.outputs(this.lastT, this.lastX, this.u, this.p, this.w);
  }

  /** evaluations so far in which a relaxed loop's pivot check failed and its torn form solved it */
  fallbackEvaluations(): number {
    return this.generated.layout.fallbackCounters.reduce((n, k) => n + this.w[k], 0);
  }

  setInput(name: string, value: number): void {
    const i = this.generated.layout.inputs.indexOf(name);
    if (i < 0) throw new SimulationError(`no input named ${name}`, { hint: `inputs: ${this.generated.layout.inputs.join(', ') || '(none)'}` });
    this.u[i] = value;
  }

  signalNames(): string[] {
    return [...this.read.keys()].filter((n) => n !== 'time');
  }

  hasSignal(name: string): boolean {
    return this.read.has(name);
  }

  /** value of any variable (state, unknown, alias, input, parameter) after the last derivatives() call */
  signal(name: string): number {
    const r = this.read.get(name);
    if (!r) throw new SimulationError(`no signal named ${name}`, { hint: 'see signalNames() or `kron compile --json` for the names' });
    return r(this.lastX);
  }

  /** a reader for one signal, for sampling without name lookups */
  reader(name: string): (x: Float64Array) => number {
    if (!this.read.has(name)) this.signal(name);
    return this.read.get(name)!;
  }

  private buildReaders(): void {
    const { layout } = this.generated;
    const w = this.w, u = this.u;
    this.read.set('time', () => this.lastT);
    layout.states.forEach((n, i) => this.read.set(n, (x) => x[i]));
    layout.inputs.forEach((n, i) => this.read.set(n, () => u[i]));
    this.plan.unknowns.forEach((v, i) => this.read.set(v.name, () => (this.refresh(), w[i])));
    for (const v of this.reduced.flat.variables) {
      if (v.kind === 'parameter' && !this.read.has(v.name)) this.read.set(v.name, () => v.value!);
    }
    for (const a of this.reduced.aliases.values()) {
      const { sign, offset } = a;
      const of = a.of ? this.read.get(a.of.name) : undefined;
      this.read.set(a.variable.name, of ? (x) => sign * of(x) + offset : () => offset);
    }
    this.read.delete(TIME.name);
    this.read.set('time', () => this.lastT);
  }

  /** firstNonFinite() is evaluating: a non-finite result there is expected, not reported again */
  private diagnosing = false;

  private readonly fail: Fail = (kind, block, t, residual) => {
    if (kind === 'nonfinite') throw this.nonFinite(t);
    const b = block >= FALLBACK_BLOCKS ? this.plan.fallbacks[block - FALLBACK_BLOCKS] : this.plan.blocks[block];
    const loops = (this.report.kinematics?.loops ?? []).filter((l) => [l.cut, ...l.joints].some((j) => b.variables.some((v) => v.startsWith(`${j}.`))));
    const mechanism = loops.map((l) => `; kinematic loop cut at ${l.cut} with joints ${l.joints.join(', ')}`).join('');
    const where = `the algebraic loop of ${b.variables.length} unknowns (tearing variables ${b.tearVariables.join(', ')}${mechanism})`;
    if (kind === 'deadpoint') {
      const loop = loops.length ? `the kinematic loop cut at ${loops.map((l) => `${l.cut} (joints ${l.joints.join(', ')})`).join(' and ')}` : where;
      const condition = residual > 0 ? `condition estimate ${(1 / residual).toExponential(1)}` : 'singular';
      throw new SimulationError(`${loop} is at a singular position at time ${t}: its constraint Jacobian is ${residual > 0 ? 'ill-conditioned' : 'singular'} (${condition}), a dead point or change point of the linkage`, {
        variables: b.tearVariables,
        hint: 'here the joints the loop determines cannot follow the state joints (their speeds grow without bound); start away from the dead point, choose state joints that drive the linkage through it (mark joints { state: true }), or change the dimensions',
      });
    }
    const messages: Record<string, string> = {
      newton: `Newton iteration did not converge at time ${t} in ${where}; residual ${residual.toExponential(3)}`,
      jacobian: `the Jacobian of ${where} is singular at time ${t}; residual ${residual.toExponential(3)}`,
      singular: `the torn linear system H z = c of ${where} is singular at time ${t}`,
      branch: `Newton may have left the assembly branch at time ${t} in ${where}: its solution is ${residual.toExponential(2)} away from the change the last position predicts`,
    };
    throw new SimulationError(messages[kind] ?? `${kind} in block ${block} at time ${t}`, {
      variables: b.variables,
      hint: kind === 'singular'
        ? 'the model is singular here (e.g. a zero mass or inertia, a massless link between joints with parallel axes, a point mass on a ball joint, a zero gear ratio, or a parameter that vanishes); check the parameters'
        : kind === 'branch'
          ? 'the step is too large for the loop to follow its motion (or it passes near a singular position): reduce --step, or use --integrator adaptive'
          : loops.length
            ? 'the loop may not close with these dimensions, the position may be singular (a dead point), or the start values of its joints are too far from a closed position: check the lengths and give better start values'
            : 'the position may be singular or the start values far from a solution: give better start values to the tearing variables, or check the loop closes',
    });
  };

  private nonFinite(t: number): NonFiniteError {
    if (this.diagnosing) return new NonFiniteError('non-finite derivatives');
    const first = this.firstNonFinite(t, Float64Array.from(this.lastX));
    const what = first ? `${first.name} (${first.equation})` : 'a state';
    return new NonFiniteError(`the state derivatives are not finite at time ${t}: first non-finite variable ${what}`, {
      variables: first ? [first.name] : [],
      hint: 'a division by zero or a value growing without bound: check parameters and start values',
    });
  }

  /**
   * After non-finite values appeared at (t, x): the first unknown in solve
   * order that is not finite, with the expression that computed it.
   */
  firstNonFinite(t: number, x: Float64Array): { name: string; equation: string } | undefined {
    this.diagnosing = true;
    try {
      this.derivatives(t, x, new Float64Array(x.length));
    } catch {
      /* the values computed so far are still in w */
    }
    try {
      this.refresh();
    } catch {
      /* likewise */
    } finally {
      this.diagnosing = false;
    }
    const bad = (s: Target) => {
      const k = this.generated.layout.workspace.indexOf(s.name);
      return k >= 0 && !Number.isFinite(this.w[k]);
    };
    for (const step of this.plan.steps) {
      const assigns = step.kind === 'assign' ? step.assigns : step.y;
      if (step.kind !== 'assign' && step.z.some(bad)) {
        const z = step.z.find(bad)!;
        return { name: z.name, equation: `tearing variable of block ${step.block}` };
      }
      for (const a of assigns) if (bad(a.target)) return { name: a.target.name, equation: `${a.target.name} = ${show(a.expr)}` };
    }
    const i = x.findIndex((v) => !Number.isFinite(v));
    return i >= 0 ? { name: this.stateNames[i], equation: 'state' } : undefined;
  }
}
