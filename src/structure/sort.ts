// Sorting: the reduced model's equations and unknowns become a bipartite
// graph, matched and partitioned into blocks in BLT order (relaxing paper
// section 2). A structurally singular system is a StructuralError that names
// the equations and variables of the over- and under-determined parts.
import { type Expr, symsOf, unrelaxedSymsOf } from '../expr/index.ts';
import { StructuralError } from '../errors.ts';
import { type FlatEquation, type ReducedModel, type Variable, describeEquation, kindOf } from '../model/index.ts';
import { type Bipartite, bipartiteFromLists } from './graph.ts';
import { type Matching, maximumMatching } from './matching.ts';
import { type Blt, bltBlocks } from './blt.ts';
import { singularParts } from './singularity.ts';
import { definedInputs } from './defined-inputs.ts';

export interface Sorted {
  readonly equations: readonly FlatEquation[];
  readonly unknowns: readonly Variable[];
  /** variable id -> index into unknowns */
  readonly unknownIndex: ReadonlyMap<number, number>;
  readonly graph: Bipartite;
  readonly matching: Matching;
  readonly blt: Blt;
  /** ids of the parameters: what a steady pivot may hold besides constants */
  readonly parameterIds: ReadonlySet<number>;
  /** inputs that an equation defines (defined-inputs.ts): unknowns here, at the end of `unknowns`, no longer inputs */
  readonly definedInputs: readonly Variable[];
}

// (reduced model, relaxed?) => unknowns (with the inputs that equations define), incidence, matching and BLT blocks
export function sortEquations(model: ReducedModel, relaxed = false): Sorted {
  // the problem's causality decides what is unknown (FlatModel.kinds: inverse dynamics makes qdd known, tau unknown)
  const isUnknown = (v: Variable) => ['algebraic', 'derivative'].includes(kindOf(model.flat, v));
  const base = model.flat.variables.filter((v) => isUnknown(v) && !model.aliases.has(v.id));
  const equations = model.equations;
  const incidence = relaxed ? unrelaxedSymsOf : symsOf;
  let unknowns = base;
  let { graph, matching } = matchUnknowns(equations, unknowns, incidence);
  const inputs = model.flat.variables.filter((v) => kindOf(model.flat, v) === 'input' && !model.aliases.has(v.id));
  // equations left over by the unknowns may define inputs (a controller's law on a joint's tau)
  const over = matching.size < equations.length && inputs.length > 0;
  const defined = over ? definedInputs(graph, matching, incidenceRows(equations, inputs, incidence), inputs.length).map((k) => inputs[k]) : [];
  if (defined.length) {
    unknowns = [...base, ...defined];
    ({ graph, matching } = matchUnknowns(equations, unknowns, incidence));
  }
  if (matching.size < Math.max(equations.length, unknowns.length)) {
    throw singularError(graph, matching, equations, unknowns, new Set(defined));
  }
  const unknownIndex = new Map(unknowns.map((v, i) => [v.id, i]));
  const parameterIds = new Set(model.flat.variables.filter((v) => v.kind === 'parameter').map((v) => v.id));
  return { equations, unknowns, unknownIndex, graph, matching, blt: bltBlocks(graph, matching), parameterIds, definedInputs: defined };
}

// (equations, unknowns, incidence) => graph and maximum matching
function matchUnknowns(equations: readonly FlatEquation[], unknowns: readonly Variable[], incidence: (e: Expr) => Iterable<number>) {
  const graph = bipartiteFromLists(unknowns.length, incidenceRows(equations, unknowns, incidence));
  return { graph, matching: maximumMatching(graph) };
}

// (equations, variables, incidence) => per equation the indices of the variables it holds.
// residue(x) makes x present: `i = residue(V)` (the tearing paper's NodeCut) belongs to
// V's loop as its residue equation, instead of being solved alone as i = 0
function incidenceRows(equations: readonly FlatEquation[], vars: readonly Variable[], incidence: (e: Expr) => Iterable<number>): number[][] {
  const index = new Map(vars.map((v, i) => [v.id, i]));
  return equations.map((eq) => {
    const row: number[] = [];
    for (const e of [eq.residual, ...eq.residues]) {
      for (const id of incidence(e)) {
        const k = index.get(id);
        if (k !== undefined) row.push(k);
      }
    }
    return row;
  });
}

function singularError(g: Bipartite, m: Matching, eqs: readonly FlatEquation[], vars: readonly Variable[], defined: ReadonlySet<Variable>): StructuralError {
  const parts = singularParts(g, m);
  const eqNames = (ids: Int32Array) => [...ids].map((i) => describeEquation(eqs[i]));
  const varNames = (ids: Int32Array) => [...ids].map((i) => vars[i].name);
  const lines: string[] = [];
  const variables: string[] = [];
  let hint = '';
  if (parts.overEqs.length > 0) {
    lines.push(...eqNames(parts.overEqs).map((s) => `over-determined: ${s}`));
    variables.push(...varNames(parts.overVars));
    hint = `${parts.overEqs.length} equations determine only ${parts.overVars.length} unknowns: remove a redundant equation or constraint, or make a known quantity unknown.`;
    // an input an equation defines takes one equation: a second one (two controllers on one joint) is the excess
    const inputs = [...parts.overVars]
      .map((i) => vars[i])
      .filter((v) => defined.has(v))
      .map((v) => v.name);
    if (inputs.length) hint += ` The input${inputs.length > 1 ? 's' : ''} ${inputs.join(', ')} can be defined by one equation each (one controller per joint).`;
  }
  if (parts.underVars.length > 0) {
    lines.push(...eqNames(parts.underEqs).map((s) => `under-determined: ${s}`));
    variables.push(...varNames(parts.underVars).map((n) => `${n} (not determined)`));
    hint += `${hint ? ' ' : ''}${parts.underVars.length} unknowns appear in only ${parts.underEqs.length} equations: add an equation (a connection, a source, a ground) or give a value.`;
  }
  return new StructuralError(`structurally singular: ${eqs.length} equations, ${vars.length} unknowns, at most ${m.size} can be matched`, {
    equations: lines,
    variables,
    hint,
  });
}
