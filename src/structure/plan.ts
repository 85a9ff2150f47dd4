// Planning: every BLT block becomes a step. Scalar blocks are solved
// explicitly (or by scalar Newton); loops are torn from the residue() hints
// (tearing paper: "Among unknowns, select as tearing variables those that
// residue() has been used on. Select as residue equations those that contain
// residue()"), then adjusted by the user's "variable tear" overrides, or torn
// by the fallback heuristic when they carry no hints.
import { type Expr, ExprError, diff, symsOf } from '../expr/index.ts';
import { TearingError } from '../errors.ts';
import { type FlatEquation, type ReducedModel, type Variable, describeEquation, kindOf, variableOf } from '../model/index.ts';
import { subgraph } from './graph.ts';
import { type TearingProblem, type TearingResult, tearHeuristic, tearWithHints } from './tearing.ts';
import { type Sorted, sortEquations } from './sort.ts';
import { solveFor, solveWithPivot } from './torn.ts';
import { chooseSolvers, formTorn } from './solve-form.ts';
import { type BlockReport, FALLBACK_BLOCKS, type IterateOptions, type RelaxedLoopReport, type SolvePlan, type Step, Temp } from './plan-types.ts';
import { iterationReport } from './iterate-plan.ts';
import { RelaxFailure, isRelaxable, relaxLoop } from './relax.ts';
import { propagateTrivial } from './propagate.ts';

/** tearing paper, "variable tear v [residue_equation_variable]": equations are named by their matched variable */
export interface TearOverride {
  /** tear variable to add (or remove); omitted: equation only */
  variable?: string;
  /** residue equation, named by the variable it is matched to; omitted: the variable's own equation; '' none */
  equation?: string;
  /** true: remove the tear the compiler chose (the variable, or the equation's) instead of adding one */
  remove?: boolean;
}

export interface PlanOptions {
  tear?: readonly TearOverride[];
  /** honour relax() marks: linear loops that carry them are eliminated in relaxed BLT order */
  relaxed?: boolean;
  /** unknowns the problem solves for besides the state derivatives (inverse dynamics: the joint forces) */
  outputs?: readonly Variable[];
  /** relaxed loops with a remainder solve it by Gauss-Seidel sweeps (relaxing paper section 4, after eq. 11) */
  iterate?: IterateOptions;
  /**
   * the model sorted already (sortEquations(model)): mode auto plans both forms
   * from one sorting, which neither form changes and which makes no node
   */
  sorted?: Sorted;
}

interface Block {
  index: number;
  eqs: number[];
  vars: number[];
}

// (reduced model, options) => solve plan: sorted blocks, each explicit, torn linear or torn Newton
export function planModel(model: ReducedModel, options: PlanOptions = {}): SolvePlan {
  const sorted = options.sorted ?? sortEquations(model);
  const hinted = hintedVariables(sorted.equations, sorted.unknowns);
  const used = new Set<TearOverride>();
  const steps: Step[] = [];
  const blocks: BlockReport[] = [];
  const diagnostics: string[] = [];
  const relaxedLoops: RelaxedLoopReport[] = [];
  const fallbacks: BlockReport[] = [];
  let pending: { target: Variable; expr: Expr }[] = [];
  const flush = () => {
    if (pending.length) steps.push({ kind: 'assign', assigns: pending });
    pending = [];
  };
  const { order, blockStart } = sorted.blt;
  for (let b = 0; b + 1 < blockStart.length; b++) {
    const eqs = [...order.subarray(blockStart[b], blockStart[b + 1])];
    const block: Block = { index: blocks.length, eqs, vars: eqs.map((e) => sorted.matching.eqToVar[e]) };
    if (eqs.length === 1) {
      const v = sorted.unknowns[block.vars[0]];
      const f = solveFor(sorted.equations[eqs[0]].residual, v);
      if (f) {
        pending.push({ target: v, expr: f });
        continue;
      }
    }
    flush();
    const eqsOf = eqs.map((e) => sorted.equations[e]);
    const varsOf = block.vars.map((v) => sorted.unknowns[v]);
    const ids = new Set(varsOf.map((v) => v.id));
    if (options.relaxed && eqs.length > 1 && isRelaxable(eqsOf, ids) && isLinearBlock(eqsOf, varsOf, ids)) {
      const r = tryRelax(relaxedLoops.length, eqsOf, varsOf, hinted, diagnostics, options.iterate);
      if (r) {
        const loop: RelaxedLoopReport = {
          size: eqs.length,
          relaxedBlocks: r.relaxedBlocks,
          largest: Math.max(1, ...r.blocks.map((b) => b.size)),
          remainder: r.remainder,
          checkedPivots: r.pivots,
        };
        if (options.iterate) Object.assign(loop, iterationReport(r.iterate, options.iterate));
        if (r.iterate)
          steps.push(r.iterate, r.step); // its pivots are checked by the iteration itself
        else if (r.pivots > 0) {
          // the loop torn, exactly as --mode torn solves it, for when a pivot check fails (plan-types, Checked)
          const torn = planLoop(sorted, { ...block, index: FALLBACK_BLOCKS + fallbacks.length }, hinted, options.tear ?? [], used, [], true);
          fallbacks.push(torn.report);
          loop.fallback = torn.report.solver;
          const at = `r${relaxedLoops.length}.`;
          steps.push({
            ...r.step,
            checked: {
              flag: new Temp(`${at}pivotFailed`),
              scale: new Temp(`${at}pivotScale`),
              count: new Temp(`${at}fallbacks`),
              fallback: torn.step,
              report: torn.report,
              pivots: r.pivots,
            },
          });
        } else steps.push(r.step);
        blocks.push(...r.blocks.map((b) => ({ ...b, relaxed: true })));
        relaxedLoops.push(loop);
        continue;
      }
    }
    const { step, report } = planLoop(sorted, block, hinted, options.tear ?? [], used, diagnostics);
    steps.push(step);
    blocks.push(report);
  }
  flush();
  const unused = (options.tear ?? []).filter((o) => !used.has(o));
  if (unused.length) {
    throw new TearingError(`variable tear: ${unused.map(overrideText).join(', ')} names no unknown or equation of an algebraic loop`, {
      hint: `loop variables: ${blocks.flatMap((b) => b.variables).join(', ') || '(no loops)'}`,
    });
  }
  const vars = model.flat.variables.filter((v) => !model.aliases.has(v.id));
  const referenced = new Set<number>();
  for (const eq of sorted.equations) for (const id of symsOf(eq.residual)) referenced.add(id);
  return {
    name: model.flat.name,
    states: vars.filter((v) => kindOf(model.flat, v) === 'state'),
    // an input an equation defines (a controller's law) is an unknown of the plan, no longer an input
    inputs: vars.filter((v) => kindOf(model.flat, v) === 'input' && !sorted.definedInputs.includes(v)),
    definedInputs: sorted.definedInputs,
    parameters: vars.filter((v) => kindOf(model.flat, v) === 'parameter' && referenced.has(v.id)),
    outputs: options.outputs ?? [],
    unknowns: sorted.unknowns,
    steps: chooseSolvers(propagateTrivial(steps), (b) => (b >= FALLBACK_BLOCKS ? fallbacks[b - FALLBACK_BLOCKS] : blocks[b])),
    blocks,
    diagnostics,
    relaxedLoops,
    fallbacks,
    flatEquations: model.flat.equations.length,
    sortedEquations: sorted.equations.length,
  };
}

const overrideText = (o: TearOverride) => `${o.remove ? '-' : ''}${o.variable ?? ''}[${o.equation ?? o.variable ?? ''}]`;

/** ids of variables named in residue() or declared `tearing`: the tearing-variable candidates */
function hintedVariables(eqs: readonly FlatEquation[], unknowns: readonly Variable[]): Set<number> {
  const out = new Set<number>(unknowns.filter((v) => v.tearing).map((v) => v.id));
  for (const eq of eqs)
    for (const r of eq.residues) {
      const v = variableOf(r);
      if (v) out.add(v.id);
    }
  return out;
}

function planLoop(
  sorted: Sorted,
  block: Block,
  hinted: Set<number>,
  overrides: readonly TearOverride[],
  used: Set<TearOverride>,
  diagnostics: string[],
  /** known linear already (a relaxed loop's fallback): thousands of equations not asked again */
  knownLinear?: true,
): { step: Step; report: BlockReport } {
  const eqs = block.eqs.map((e) => sorted.equations[e]);
  const vars = block.vars.map((v) => sorted.unknowns[v]);
  const ids = new Set(vars.map((v) => v.id));
  const local = subgraph(sorted.graph, block.eqs, block.vars).graph;
  const linear = knownLinear ?? isLinearBlock(eqs, vars, ids);
  // only real occurrences compute a variable (a residue(x) incidence is structural only);
  // the solutions are kept for the causal sequence
  const solved = new Map<number, { solution: () => Expr; steady: boolean } | null>();
  const solve = (e: number, v: number) => {
    const key = e * vars.length + v;
    let f = solved.get(key);
    if (f === undefined) solved.set(key, (f = solveWithPivot(eqs[e].residual, vars[v], sorted.parameterIds)));
    return f;
  };
  const solution = (e: number, v: number) => solve(e, v)?.solution() ?? null;
  // the causal sequence divides only by steady pivots (constants, parameters) where the tearing
  // allows: a coefficient that moves with the state (a rotation matrix entry) can pass through
  // zero, and the torn form has no other pivot to take then (a loop's velocity level torn on
  // frame velocities divided by an entry of R that was 1e-16 at some position)
  const steadily = (e: number, v: number) => solve(e, v)?.steady === true;
  const anyway = (e: number, v: number) => solve(e, v) !== null;
  let z = vars.map((v, i) => (hinted.has(v.id) ? i : -1)).filter((i) => i >= 0);
  let h = eqs.map((eq, i) => (eq.residues.length > 0 ? i : -1)).filter((i) => i >= 0);
  reportForeignResidues(eqs, ids, diagnostics);
  ({ z, h } = applyOverrides(z, h, vars, block, sorted, overrides, used));
  const fromHints = z.length > 0 || h.length > 0;
  // a loop closure: declared tearing variables (a kinematic loop's q, qd) and residue equations
  // that name none (a cut joint's residue(0)): tear the variables, what is left are the residues
  const closure = fromHints && z.every((i) => vars[i].tearing) && !h.some((i) => namesUnknown(eqs[i], ids));
  let torn: TearingResult;
  if (closure) {
    torn = tearHeuristic(local, steadily, z);
  } else if (fromHints) {
    // the hints' own causal sequence, steady where it can be (the library's hints give one)
    const steady = tearWithHints(local, steadily, z, h);
    const r = steady.ok ? steady : tearWithHints(local, anyway, z, h);
    if (!r.ok) throw tearingError(r.problems, eqs, vars);
    torn = r.result;
  } else {
    torn = tearHeuristic(local, steadily);
  }
  const sequence = [...torn.assignEqs].map((e, k) => ({ v: vars[torn.assignVars[k]], f: solution(e, torn.assignVars[k])! }));
  const zVars = [...torn.tearVars].map((i) => vars[i]);
  const pairs = pairResidues(
    zVars,
    [...torn.residueEqs].map((i) => eqs[i]),
  );
  const tornBlock = {
    block: block.index,
    sequence,
    z: zVars,
    residues: (pairs ?? [...torn.residueEqs].map((i) => eqs[i])).map((eq) => eq.residual),
    paired: pairs !== undefined,
  };
  const k = tornBlock.z.length;
  const [formed, formedBy] = formTorn(tornBlock, linear, isRelaxable(eqs, ids), eqs, vars, hinted);
  // the position level of a kinematic loop: dH/dz is the constraint Jacobian, singular at dead points
  const step: Step = formed.kind === 'newton' && closure ? { ...formed, closure: true } : formed;
  const report: BlockReport = {
    size: eqs.length,
    tearing: k,
    linear,
    solver: step.kind === 'linear' ? step.solver : 'newton',
    variables: vars.map((v) => v.name),
    tearVariables: tornBlock.z.map((v) => v.name),
    residueEquations: [...torn.residueEqs].map((i) => describeEquation(eqs[i])),
    tearingFrom: fromHints ? 'hints' : 'heuristic',
    ...(formedBy && k > 1 && { formedBy }),
    // a linear step's form is recorded by the last stage of planning (solve-form.ts, chooseSolvers)
    ...(step.kind === 'newton' && { form: 'newton' as const, why: 'nonlinear in its tearing variables: Newton at run time' }),
  };
  return { step, report };
}

/** relaxLoop, or undefined with a diagnostic when the elimination cannot proceed (the loop is then torn) */
function tryRelax(index: number, eqs: FlatEquation[], vars: Variable[], hinted: Set<number>, diagnostics: string[], iterate?: IterateOptions) {
  try {
    return relaxLoop(index, eqs, vars, hinted, iterate);
  } catch (e) {
    // a pivot that folds to the constant zero (ExprError) is the elimination's failure too, not the model's
    if (!(e instanceof RelaxFailure || e instanceof ExprError)) throw e;
    const names = vars
      .slice(0, 6)
      .map((v) => v.name)
      .join(', ');
    diagnostics.push(`relaxing the loop of ${eqs.length} equations (${names}${vars.length > 6 ? ', ...' : ''}) failed: ${e.message}; the loop is torn instead`);
    return undefined;
  }
}

/**
 * Residue equations ordered like the tearing variables they name in residue(),
 * when every one names exactly one of them (tearing paper: "by proper pairing,
 * the matrix H might become symmetric"), else undefined.
 */
function pairResidues(z: Variable[], residueEqs: FlatEquation[]): FlatEquation[] | undefined {
  const byVar = new Map<number, FlatEquation>();
  for (const eq of residueEqs) {
    const named = eq.residues.map(variableOf).filter((v) => v && z.includes(v));
    if (named.length !== 1 || byVar.has(named[0]!.id)) return undefined;
    byVar.set(named[0]!.id, eq);
  }
  return z.every((v) => byVar.has(v.id)) ? z.map((v) => byVar.get(v.id)!) : undefined;
}

/** every equation linear in the unknowns it holds (visiting only those: blocks have thousands) */
function isLinearBlock(eqs: readonly FlatEquation[], vars: readonly Variable[], ids: Set<number>): boolean {
  const byId = new Map(vars.map((v) => [v.id, v]));
  return eqs.every((eq) => symsOf(eq.residual).every((id) => !byId.has(id) || isLinearIn(eq.residual, byId.get(id)!, ids)));
}

/** linear in v, a variable occurring in residual, with a coefficient free of every unknown of the block */
function isLinearIn(residual: Expr, v: Variable, blockIds: Set<number>): boolean {
  return !symsOf(diff(residual, v)).some((id) => blockIds.has(id));
}

/** does eq name an unknown of the block in residue()? */
function namesUnknown(eq: FlatEquation, ids: Set<number>): boolean {
  return eq.residues.some((r) => {
    const v = variableOf(r);
    return v !== undefined && ids.has(v.id);
  });
}

function reportForeignResidues(eqs: FlatEquation[], ids: Set<number>, diagnostics: string[]): void {
  for (const eq of eqs)
    for (const r of eq.residues) {
      const v = variableOf(r);
      if (v && !ids.has(v.id)) {
        diagnostics.push(
          `residue(${v.name}) in "${describeEquation(eq)}": ${v.name} is not an unknown of this algebraic loop, so it cannot be its tearing variable`,
        );
      }
    }
}

function applyOverrides(
  z: number[],
  h: number[],
  vars: Variable[],
  block: Block,
  sorted: Sorted,
  overrides: readonly TearOverride[],
  used: Set<TearOverride>,
): { z: number[]; h: number[] } {
  const zs = new Set(z),
    hs = new Set(h);
  const varIndex = (name: string) => vars.findIndex((v) => v.name === name);
  for (const o of overrides) {
    const vi = o.variable ? varIndex(o.variable) : -1;
    const eqName = o.equation ?? o.variable ?? '';
    const ei = eqName ? block.vars.findIndex((v) => sorted.unknowns[v].name === eqName) : -1;
    if (vi < 0 && ei < 0) continue;
    used.add(o);
    const apply = (set: Set<number>, i: number) => (i < 0 ? undefined : o.remove ? set.delete(i) : set.add(i));
    apply(zs, vi);
    apply(hs, ei);
  }
  return { z: [...zs].sort((a, b) => a - b), h: [...hs].sort((a, b) => a - b) };
}

function tearingError(problems: TearingProblem[], eqs: FlatEquation[], vars: Variable[]): TearingError {
  const p = problems[0];
  const names = [...p.vars].map((i) => vars[i].name);
  const lines = [...p.eqs].map((i) => describeEquation(eqs[i]));
  const what = {
    'count-mismatch': `tearing hints are inconsistent: ${p.vars.length} tearing variables but ${p.eqs.length} residue equations in one algebraic loop`,
    loop: `tearing hints leave an algebraic loop of ${p.eqs.length} equations`,
    unmatched: `tearing hints leave ${p.eqs.length} equations that cannot compute the remaining variables explicitly`,
  }[p.kind];
  return new TearingError(what, {
    variables: names,
    equations: lines,
    hint:
      p.kind === 'count-mismatch'
        ? 'give each residue equation one tearing variable: add residue(x) for an unknown x of the loop, or add/remove one with a "variable tear" override'
        : `make one of ${names.slice(0, 4).join(', ')} a tearing variable (residue(x) in the library, or --tear x), or remove the hints to let the heuristic tear this loop`,
  });
}
