// The pipeline: model -> flat model -> aliases removed -> sorted and torn
// plan -> generated JavaScript -> compiled model with its report.
// Pure: parameter and start values travel as data, nothing is written into
// the model, and the expressions a compile makes are released with it
// (expr/node.ts, withLocalTable).
import { ModelError, StructuralError, UsageError } from './errors.ts';
import { type TableSnapshot, tableSnapshot, withLocalTable } from './expr/index.ts';
import {
  type FlatModel,
  type GeneralizedCoordinate,
  type Model,
  type ReducedModel,
  type TemplateReport,
  type VarKind,
  type Variable,
  components,
  elaborate,
  eliminateAliases,
  findTemplates,
  flatten,
  unconnectedConnectors,
  variableOf,
} from './model/index.ts';
import { type TearOverride, planModel } from './structure/plan.ts';
import { type Sorted, sortEquations } from './structure/sort.ts';
import type { BlockReport, SolvePlan } from './structure/plan-types.ts';
import type { SubstitutionOptions } from './codegen/substitution.ts';
import { generate } from './codegen/generate.ts';
import { compileEvents } from './codegen/events.ts';
import { CompiledModel } from './codegen/compiled.ts';
import { registerTangentCode } from './codegen/inverse.ts';
import { inverseTangents } from './codegen/inverse-tangents.ts';
import { type Target, compiledData } from './codegen/compiled-data.ts';
import type { WatchedPose } from './codegen/pose-watch.ts';
import type { AutoModeReport, CompileReport, Mode, Problem } from './report.ts';
import { modeCost } from './structure/costs.ts';
import { tornSolveBound } from './structure/solve-form.ts';
import type { IterateOptions } from './structure/plan-types.ts';
import { checkIterate, iterateOptions } from './structure/iterate-plan.ts';
import { templatesAsked, templatesReport } from './compile-templates.ts';

export type { AutoModeReport, CompileReport, Mode, Problem };

// a tree's mass matrix and derivatives are generated code, made on first use (codegen/inverse-tangents.ts)
registerTangentCode(inverseTangents);

/** how compile() works: the solve form (mode), tearing overrides, parameters kept symbolic, the target, the problem */
export interface CompileOptions {
  /**
   * 'torn' (residue hints, M(q) qdd = h), 'relaxed' (relax hints as well, O(f)),
   * or 'auto' (the default): the one with fewer weighted operations per
   * evaluation kept (report.auto says what each cost); the torn form is not
   * compiled when its run-time solve alone costs more than the relaxed form
   */
  mode?: Mode | 'auto';
  /**
   * 'forward' (default): states and inputs known, qdd computed. 'inverse': the
   * state joints' q, qd, qdd known and their tau computed (the generalized
   * coordinates of Model.generalizedCoordinates()); see CompiledModel.inverse()
   */
  problem?: Problem;
  /** "variable tear" overrides of the tearing paper */
  tear?: readonly TearOverride[];
  /** parameter values by hierarchical name, overriding the declared ones (the model is not changed) */
  parameters?: Readonly<Record<string, number>>;
  /** start values by name (states such as 'j1.q', or first guesses of unknowns), overriding the declared ones */
  start?: Readonly<Record<string, number>>;
  /** fold parameters into constants (default true) */
  foldParameters?: boolean;
  /** statements per generated function (default 800) */
  chunk?: number;
  /** share generated functions that are equal up to shifted workspace, state and parameter indices (default true) */
  share?: boolean;
  /**
   * compile repeated subsystems as templates (default true): where
   * report.templates says a template pays, functions alike up to their slots
   * and numbers are emitted once and run over an instance index with those
   * from tables (codegen/templates.ts), the same numbers bit for bit; false
   * compiles flat (report.templates.reason says which)
   */
  templates?: boolean;
  /**
   * the relaxing iteration (relaxing paper section 4, after eq. 11): implies mode
   * 'relaxed'; a relaxed loop's remainder (the nodal equations of MNA) is solved by
   * Gauss-Seidel sweeps instead of being eliminated; true for the defaults
   * (tol 1e-10, maxSweeps 500, omega 1), or some of them
   */
  relaxIterate?: boolean | Partial<IterateOptions>;
  /**
   * torn nonlinear loops other than kinematic closures: successive substitution
   * (tearing paper) before Newton, which finishes an evaluation it does not
   * converge in; true for the defaults (maxSweeps 50). See codegen/substitution.ts
   */
  tornSubstitution?: boolean | Partial<SubstitutionOptions>;
  /**
   * 'wasm': derivatives()'s straight-line functions run as WebAssembly, the
   * rest as JavaScript, on one memory (codegen/wasm.ts); the values are the
   * JavaScript target's bit for bit, checked here at two states. Default 'js'.
   */
  target?: Target;
}

/** (model, options) => compiled model and its report */
export function compile(model: Model, options: CompileOptions = {}): CompiledModel {
  return compileShared(model, options);
}

/** compile(), with mode auto's two forms sharing their front (Front): the holder `shared` is filled by the first */
function compileShared(model: Model, options: CompileOptions, shared?: { front?: Front }): CompiledModel {
  const t0 = performance.now();
  const iterate = checkIterate(options);
  // the default is 'auto' (proven equal on every model: test/compile/auto-proof.test.ts); the relaxing iteration is relaxed's
  const asked = options.mode ?? 'auto';
  if (asked === 'auto' && !iterate) return compileAuto(model, options, t0);
  const mode = asked === 'auto' ? 'relaxed' : asked;
  if (mode !== 'torn' && mode !== 'relaxed') throw new UsageError(`mode "${mode}" is not known`, { hint: 'use --mode torn, relaxed or auto' });
  const problem = options.problem ?? 'forward';
  if (problem !== 'forward' && problem !== 'inverse')
    throw new UsageError(`problem "${problem}" is not known`, { hint: "use problem: 'forward' or 'inverse' (kron compile --inverse)" });
  // what the model declares once it is complete belongs to the model, not to this compile's table
  elaborate(model);
  const compiled = withLocalTable(() => compileElaborated(model, mode, problem, { ...options, relaxIterate: iterate }, shared), shared?.front?.table);
  compiled.report.compileMs = Math.round((performance.now() - t0) * 100) / 100;
  return compiled;
}

/**
 * The flattened model without its aliases, what both forms of mode 'auto'
 * compile from: the first compile leaves it here with its table as it was
 * then (expr/node.ts, tableSnapshot), and the second starts from both, so
 * that it makes no node the first made and every later one as it would have
 * made it (the generated code is byte for byte the same). Flattening and
 * alias elimination were a sixth of the humanoid's auto compile. Its
 * sorting (matching and BLT) is the same for both forms and makes no node:
 * the second form plans from the first's.
 */
interface Front {
  coordinates: GeneralizedCoordinate[];
  flat: FlatModel;
  reduced: ReducedModel;
  outputs: Variable[];
  /** the repeated subsystems found in the model (model/templates.ts) */
  templates: TemplateReport;
  table: TableSnapshot;
  /** the reduced model sorted, by the first form's planning (structure/sort.ts) */
  sorted?: Sorted;
}

/**
 * Mode 'auto': the torn and the relaxed form compiled, the one with the lower
 * weighted operation count per evaluation kept (relaxed on a tie: O(f) as
 * the tree grows). The relaxed form first: when the run-time solves of its
 * loops' torn fallbacks (planned exactly as --mode torn plans those loops)
 * alone cost more than the whole relaxed form, the torn form cannot be the
 * cheaper and is not compiled (long chains: the torn chain of 64 is ~3x the
 * relaxed one's compile time). A form that does not compile leaves the
 * other; when both fail, the torn form's error is the one raised.
 */
function compileAuto(model: Model, options: CompileOptions, t0: number): CompiledModel {
  const shared: { front?: Front } = {};
  const attempt = (mode: Mode): CompiledModel | Error => {
    try {
      return compileShared(model, { ...options, mode }, shared);
    } catch (e) {
      if (e instanceof Error) return e;
      throw e;
    }
  };
  const relaxed = attempt('relaxed');
  const bound = relaxed instanceof Error ? undefined : tornSolveBound(relaxed.plan.steps);
  const torn = bound !== undefined && !(relaxed instanceof Error) && bound > modeCost(relaxed.report.ops) ? { atLeast: bound } : attempt('torn');
  if (torn instanceof Error && relaxed instanceof Error) throw torn;
  const entry = (c: CompiledModel | Error) => (c instanceof Error ? { error: c.message } : { cost: modeCost(c.report.ops), ops: c.report.ops });
  const kept =
    !(torn instanceof CompiledModel) || (!(relaxed instanceof Error) && modeCost(relaxed.report.ops) <= modeCost(torn.report.ops))
      ? (relaxed as CompiledModel)
      : torn;
  const auto: AutoModeReport = {
    chosen: kept.report.mode,
    torn: torn instanceof CompiledModel || torn instanceof Error ? entry(torn) : torn,
    relaxed: entry(relaxed),
  };
  kept.report.auto = auto;
  kept.report.compileMs = Math.round((performance.now() - t0) * 100) / 100;
  return kept;
}

/** the model flattened, its aliases eliminated, and the outputs of the problem */
function front(model: Model, problem: Problem, options: CompileOptions): Omit<Front, 'table'> {
  const coordinates = problem === 'inverse' ? inverseCoordinates(model) : [];
  const flat = flatten(model, { foldParameters: options.foldParameters, parameters: options.parameters, kinds: inverseKinds(coordinates) });
  const reduced = withoutKnownResidues(eliminateAliases(flat), coordinates);
  // the forces are what the inverse problem is for: computed with the derivatives, whatever their alias
  const outputs = coordinates.map((k) => reduced.aliases.get(k.tau.id)?.of ?? k.tau).filter((v) => !reduced.aliases.has(v.id));
  const templates = findTemplates(model, flat.parameterValues, options.foldParameters ?? true);
  return { coordinates, flat, reduced, outputs, templates };
}

function compileElaborated(model: Model, mode: Mode, problem: Problem, options: CompileOptions, shared?: { front?: Front }): CompiledModel {
  const { coordinates, flat, reduced, outputs, templates } = shared?.front ?? front(model, problem, options);
  if (shared && !shared.front) shared.front = { coordinates, flat, reduced, outputs, templates, table: tableSnapshot() };
  let plan;
  try {
    const sorted = shared?.front ? (shared.front.sorted ??= sortEquations(reduced)) : undefined;
    plan = planModel(reduced, { tear: options.tear, relaxed: mode === 'relaxed', outputs, iterate: iterateOptions(options.relaxIterate), sorted });
  } catch (e) {
    if (e instanceof StructuralError && problem === 'inverse') throw inverseCause(e, coordinates);
    throw e instanceof StructuralError ? (unconnectedCause(model, e) ?? e) : e;
  }
  const substitution = substitutionOptions(options.tornSubstitution);
  const templated = templatesAsked(templates, options);
  const generated = generate(plan, { chunk: options.chunk, share: options.share, substitution, ir: options.target === 'wasm', templates: templated === true });
  const report: CompileReport = {
    model: flat.name,
    mode,
    equations: flat.equations.length,
    unknowns: plan.unknowns.length,
    states: plan.states.length,
    blocks: plan.blocks
      .filter((b) => b.size > 1)
      .map((b) => (b.solver === 'newton' && substitution ? { ...b, iteration: nonlinearMethod(plan, b, substitution) } : b)),
    ops: generated.ops,
    outputOps: generated.outputOps,
    compileMs: 0,
    sortedEquations: plan.sortedEquations,
    aliasesEliminated: reduced.aliases.size,
    nonlinearScalars: plan.blocks.filter((b) => b.size === 1).length,
    functions: generated.functions,
    // what the components noticed of how they were built (a body without inertia), then the solver's own
    diagnostics: [...components(model).flatMap((c) => c.notes()), ...plan.diagnostics],
    relaxedLoops: [...plan.relaxedLoops],
    problem,
    // not a diagnostic: those are warnings on every run, and a flat compile is not wrong, only slower to make
    templates: templatesReport(templates, templated, generated.templates),
  };
  if (problem === 'inverse')
    report.inverse = {
      // a quaternion joint's rotation is named by its angular velocity (j.w[1]): it has no angle of its own
      coordinates: coordinates.map((k) => (k.quaternion ? k.qd.name : k.q.name.replace(/\.q(\[\d+\])?$/, '$1'))),
      forces: coordinates.map((k) => k.tau.name),
      ops: generated.ops,
    };
  if (plan.definedInputs.length) report.definedInputs = plan.definedInputs.map((v) => v.name);
  const kinematics = model.describeStructure() as CompileReport['kinematics'];
  if (kinematics) report.kinematics = kinematics;
  const header = { model: report.model, mode, equations: report.equations, states: generated.layout.states.join(', ') };
  const names = coordinates.map((k) => ({
    q: k.q.name,
    qd: k.qd.name,
    qdd: k.qdd.name,
    tau: k.tau.name,
    ...(k.quaternion && { quaternion: { Q: k.quaternion.Q.map((v) => v.name), axis: k.quaternion.axis } }),
  }));
  const target = checkTarget(options.target);
  const base = compiledData(plan, reduced, generated, report, header, {
    folded: options.foldParameters ?? true,
    start: options.start,
    problem,
    coordinates: names,
    target,
  });
  // events belong to forward runs: the inverse problem has no states to integrate past them
  const events =
    problem === 'forward'
      ? compileEvents(
          components(model).flatMap((c) => c.events),
          new Map(base.sources),
        )
      : undefined;
  if (events) report.events = events.events.map(({ name, component, direction }) => ({ name, component, direction }));
  const data = { ...base, singularPoses: singularPoses(model), unitNorms: unitNorms(model), ...(events && { events }) };
  const compiled = new CompiledModel(data, { plan, reduced });
  if (target === 'wasm') checkWasm(compiled);
  return compiled;
}

/** the singular poses the elaborated components declare, their states by name (pose-watch.ts) */
function singularPoses(model: Model): WatchedPose[] {
  return components(model).flatMap((c) =>
    c
      .singularPoses()
      .map(({ state, rates, what, hint }) => ({ state: variableOf(state)!.name, rates: rates.map((r) => variableOf(r)!.name), component: c.path, what, hint })),
  );
}

/** the states of unit norm the elaborated components declare (their quaternions), by name */
function unitNorms(model: Model): string[][] {
  return components(model).flatMap((c) => c.unitNorms().map((group) => group.map((e) => variableOf(e)!.name)));
}

function checkTarget(target: CompileOptions['target']): Target {
  if (target === undefined || target === 'js' || target === 'wasm') return target ?? 'js';
  throw new UsageError(`target "${target}" is not known`, { hint: 'use --target js (the default) or wasm' });
}

/**
 * The WebAssembly target runs, or says why not (report.target 'js' and a
 * diagnostic), and computes what the JavaScript target computes bit for bit:
 * every state derivative and workspace slot at the start state and at a
 * state moved off it (an error otherwise: a wrong number must not run).
 */
function checkWasm(compiled: CompiledModel): void {
  const report = compiled.report;
  report.target = compiled.wasm ? 'wasm' : 'js';
  if (!compiled.wasm) {
    report.diagnostics.push(`target wasm: ${compiled.wasmUnavailable}; the model runs as JavaScript`);
    return;
  }
  const js = compiled.defaults.w.slice(),
    wasm = compiled.createState();
  const x = compiled.x0();
  for (const move of [0, 0.25]) {
    const at = x.map((v, i) => v + move * Math.sin(i + 1));
    const a = new Float64Array(at.length),
      b = new Float64Array(at.length);
    try {
      compiled.fn(0, at, a, compiled.defaults.u, compiled.defaults.p, js);
    } catch {
      continue; // a state the model cannot evaluate at: nothing to compare
    }
    wasm.derivatives(0, at, b);
    const differs = [...a].findIndex((v, i) => !Object.is(v, b[i]));
    const slot = differs < 0 ? [...js].findIndex((v, i) => !Object.is(v, wasm.w[i])) : -1;
    if (differs >= 0 || slot >= 0) {
      const what =
        differs >= 0
          ? `der(${compiled.stateNames[differs]}): ${a[differs]} against ${b[differs]}`
          : `${compiled.generated.layout.workspace[slot]}: ${js[slot]} against ${wasm.w[slot]}`;
      throw new ModelError(`target wasm computes another value than JavaScript: ${what}`, {
        hint: 'a bug of the WebAssembly target: compile with target js (the default) and report it',
      });
    }
  }
}

/** tornSubstitution's options, checked */
function substitutionOptions(o: CompileOptions['tornSubstitution']): SubstitutionOptions | undefined {
  if (!o) return undefined;
  const maxSweeps = (o === true ? undefined : o.maxSweeps) ?? 50;
  if (!(Number.isInteger(maxSweeps) && maxSweeps >= 1))
    throw new UsageError(`substitution sweep count ${maxSweeps} must be an integer >= 1`, { hint: 'e.g. tornSubstitution: { maxSweeps: 50 }' });
  return { maxSweeps };
}

/** how a torn nonlinear block is solved: a kinematic closure always by Newton */
function nonlinearMethod(plan: SolvePlan, b: BlockReport, substitution: SubstitutionOptions | undefined): 'newton' | 'substitution' {
  const step = plan.steps.find((s) => s.kind === 'newton' && plan.blocks[s.block] === b);
  return substitution && step?.kind === 'newton' && !step.closure ? 'substitution' : 'newton';
}

/** the model's generalized coordinates, checked: states q, qd, unknown qdd, input tau */
function inverseCoordinates(model: Model): GeneralizedCoordinate[] {
  const coordinates = model.generalizedCoordinates();
  if (coordinates.length === 0) {
    throw new UsageError(`model ${model.title} declares no generalized coordinates, so it has no inverse problem`, {
      hint: 'inverse dynamics needs a Mechanism with state joints (or a Model whose generalizedCoordinates() names q, qd, qdd and tau)',
    });
  }
  for (const k of coordinates) {
    const wrong = (
      [
        ['q', 'state'],
        ['qd', 'state'],
        ['qdd', 'algebraic'],
        ['tau', 'input'],
      ] as const
    ).find(([f, kind]) => k[f].kind !== kind);
    if (wrong) {
      throw new ModelError(`generalized coordinate ${k.q.name}: ${k[wrong[0]].name} is ${k[wrong[0]].kind}, not ${wrong[1]}`, {
        component: k.q.owner?.path,
        variables: [k[wrong[0]].name],
        hint: 'the inverse problem swaps an unknown acceleration qdd with a known force tau: q and qd must be states, qdd an unknown, tau an input',
      });
    }
  }
  return coordinates;
}

/**
 * residue(qdd) pairs a joint's d'Alembert equation with qdd as its tearing
 * variable (relaxing paper eq. 29); with qdd known that hint names no unknown
 * and the equation simply computes tau: the hint is dropped for this problem
 */
function withoutKnownResidues(reduced: ReducedModel, coordinates: readonly GeneralizedCoordinate[]): ReducedModel {
  if (coordinates.length === 0) return reduced;
  const known = new Set(coordinates.map((k) => k.qdd.id));
  const equations = reduced.equations.map((eq) => {
    const residues = eq.residues.filter((r) => !known.has(variableOf(r)?.id ?? -1));
    return residues.length === eq.residues.length ? eq : { ...eq, residues };
  });
  return { ...reduced, equations };
}

/** inverse dynamics: each qdd known (an input), each tau unknown; the model's variables keep their kinds */
function inverseKinds(coordinates: readonly GeneralizedCoordinate[]): Map<number, VarKind> {
  const kinds = new Map<number, VarKind>();
  for (const k of coordinates) {
    kinds.set(k.qdd.id, 'input');
    kinds.set(k.tau.id, 'algebraic');
  }
  return kinds;
}

/**
 * The inverse problem is structurally singular: the forces named cannot all
 * be determined from the accelerations (a massless link whose tau does not
 * enter, a coordinate the loop fixes), or an acceleration is over-determined.
 */
function inverseCause(e: StructuralError, coordinates: readonly GeneralizedCoordinate[]): StructuralError {
  const names = new Set((e.details.variables ?? []).map((v) => v.replace(/ \(not determined\)$/, '')));
  const forces = coordinates.filter((k) => names.has(k.tau.name)).map((k) => k.tau.name);
  const first = forces[0] ?? [...names][0];
  return new StructuralError(
    `the inverse problem is structurally singular: ${forces.length ? `the forces ${forces.join(', ')} are` : `${first} is`} not determined by the given accelerations (${e.message})`,
    {
      component: first?.split('.').slice(0, -1).join('.') || undefined,
      variables: e.details.variables,
      equations: e.details.equations,
      hint: `with q, qd, qdd of every state joint given, each state joint's tau must be computable from its d'Alembert equation: a coordinate whose force does not enter it (a massless end link, a joint whose axis the loop fixes) makes the problem singular; make that joint a rest joint ({ state: false }) or give its link mass. ${e.details.hint ?? ''}`.trim(),
    },
  );
}

/**
 * A structurally singular model whose undetermined unknowns are the across
 * quantities of a connector that nothing is connected to (a body left
 * hanging): say that, rather than list the equations.
 */
function unconnectedCause(model: Model, e: StructuralError): StructuralError | undefined {
  const undetermined = new Set((e.details.variables ?? []).filter((v) => v.endsWith(' (not determined)')).map((v) => v.slice(0, -' (not determined)'.length)));
  const culprits = unconnectedConnectors(model).filter((c) => c.across.length > 0 && c.across.some((v) => undetermined.has(v)));
  if (culprits.length === 0) return undefined;
  const names = culprits.map((c) => c.name);
  return new StructuralError(
    `${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} not connected to anything, so nothing determines ${names.length > 1 ? 'their' : 'its'} ${[...new Set(culprits.flatMap((c) => c.across.map((v) => v.slice(c.name.length + 1).replace(/\[.*$/, ''))))].join(', ')}`,
    {
      component: culprits[0].name.split('.').slice(0, -1).join('.') || undefined,
      variables: shortList(culprits.flatMap((c) => c.across.filter((v) => undetermined.has(v)))),
      hint: `connect ${names.length > 1 ? 'each' : 'it'} to the model, e.g. m.connect(<a joint's frame_b>, ${names[0]}) (${e.message})`,
    },
  );
}

const shortList = (names: string[], n = 4) => (names.length > n ? [...names.slice(0, n), `... (${names.length} in all)`] : names);
