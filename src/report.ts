// The compile report: what `kron compile --json` prints. A contract that
// tools rely on: fields are only ever added, never renamed.
import type { BlockReport, RelaxedLoopReport } from './structure/plan-types.ts';
import type { OpCounts } from './structure/costs.ts';
import type { Topology } from './library/multibody/topology.ts';
import type { TemplateReport } from './model/templates.ts';

/** the solve form: torn (M qdd = h, O(n^3)) or relaxed (articulated-body recursion, O(f)) */
export type Mode = 'torn' | 'relaxed';

/** mode 'auto': the forms compiled, each with its weighted operation count or why it failed */
export interface AutoModeReport {
  /** the form kept: the lower cost (mul + add + 4 (div + fn), structure/costs.ts modeCost); relaxed on a tie */
  chosen: Mode;
  /** atLeast: not compiled, its loops' run-time solves alone cost more than the relaxed form (compile.ts compileAuto) */
  torn: { cost: number; ops: OpCounts } | { error: string } | { atLeast: number };
  relaxed: { cost: number; ops: OpCounts } | { error: string };
}

/** what the compiled code computes: 'forward' dynamics (qdd from tau) or 'inverse' (tau from qdd) */
export type Problem = 'forward' | 'inverse';

/** `kron compile --json`: a contract; fields are only ever added */
export interface CompileReport {
  /** the model's name */
  model: string;
  /** the solve form of the code: 'torn' (M qdd = h, O(n^3)) or 'relaxed' (articulated-body, O(f)) */
  mode: Mode;
  /** scalar equations after flattening */
  equations: number;
  /** unknowns the solver determines (after alias elimination) */
  unknowns: number;
  /** state variables (the integrator's x) */
  states: number;
  /** algebraic loops of size > 1 */
  blocks: BlockReport[];
  /** operations per evaluation of the state derivatives (Newton loops: one iteration) */
  ops: OpCounts;
  /** CPU time of the compile, ms */
  compileMs: number;
  /** operations of the outputs pass (signals the derivatives do not need), run only when sampling */
  outputOps: OpCounts;
  /** equations left after alias elimination, i.e. those that are sorted */
  sortedEquations: number;
  /** equations a = ±b (+ c) removed by alias elimination */
  aliasesEliminated: number;
  /** scalar non-linear equations solved by Newton on their own */
  nonlinearScalars: number;
  /** generated functions */
  functions: number;
  /** what the compiler noticed and did about it (a fallback, a heuristic tear, a singular pivot guarded) */
  diagnostics: string[];
  /** --mode relaxed: the loops eliminated in relaxed BLT order (relaxing paper section 4) */
  relaxedLoops: RelaxedLoopReport[];
  /** inputs an equation of the model defines (a controller's law for a joint's tau), now unknowns; only when there are any */
  definedInputs?: string[];
  /** mechanisms: the joints' roles the builder chose (state, rest, cut) and the kinematic loops it cut */
  kinematics?: Topology;
  /** the zero-crossing events the components declare (Component.when), in the order of ModelState.indicators(); only when there are any */
  events?: {
    /** the event's name within its component */
    name: string;
    /** the component that declares it */
    component: string;
    /** which zero crossings of its indicator fire it */
    direction: 'rising' | 'falling' | 'both';
  }[];
  /** what the code computes: forward dynamics (the default) or inverse dynamics */
  problem?: Problem;
  /**
   * problem 'inverse': the generalized coordinates (joint, e.g. "j1" or
   * "ball[2]"), the generalized forces computed (e.g. "j1.tau"), and the
   * operations of one inverse-dynamics evaluation (= ops: the forces are
   * computed with the state derivatives)
   */
  inverse?: {
    /** the generalized coordinates, by joint ("j1", "ball[2]") */
    coordinates: string[];
    /** the generalized forces computed ("j1.tau") */
    forces: string[];
    /** the operations of one inverse-dynamics evaluation */
    ops: OpCounts;
  };
  /**
   * repeated subsystems (model/templates.ts): the groups of instances of one
   * component class with the same equations up to parameter values and
   * neighbours, and why the compile is flat (templates are not compiled yet)
   */
  templates?: TemplateReport;
  /** compiled with mode 'auto' (--mode auto): both forms and the choice; `mode` is the form kept */
  auto?: AutoModeReport;
  /**
   * the command line's compile cache (node/compile-cache.ts): the entry's key,
   * whether this run found it (hit: compileMs is the compile that stored it,
   * loadMs what this run took instead) or stored it (stored: false and the
   * reason when the module read what no key can hold: the key is then the
   * model's); reads: what the model module read while it was imported and
   * built, which the entry is keyed on too (files, environment variables,
   * argv: the command line), absent when it read nothing
   */
  cache?: {
    /** the entry's key */
    key: string;
    /** this run found the entry (compileMs is then the compile that stored it) */
    hit: boolean;
    /** on a hit: ms this run took to load the entry instead of compiling */
    loadMs?: number;
    /** on a miss: whether this run stored its compile (false: see reason) */
    stored?: boolean;
    /** why it was not stored: the module read what no key can hold */
    reason?: string;
    /** what the model module read while imported and built, which the key covers too; absent when it read nothing */
    reads?: {
      /** files read (paths) */
      files: string[];
      /** environment variables read (names) */
      env: string[];
      /** the command line (process.argv) was read */
      argv?: boolean;
    };
  };
  /** compiled with target 'wasm': 'wasm' when the WebAssembly target runs, 'js' when it could not (diagnostics say why) */
  target?: 'js' | 'wasm';
}
