// Inputs defined by equations: a joint's drive torque is an input (a value
// supplied at every evaluation) until the model writes an equation for it — a
// controller `j1.tau = -kp (j1.q - q_ref) - kd j1.qd` — and then it is an
// unknown like any other. Structurally: the unknowns alone leave equations
// unmatched; the inputs that occur in those equations are offered as further
// unknowns and the matching is grown from the one of the unknowns alone, so
// every unknown keeps its equation and only inputs that an equation left over
// can take are promoted (as Modelica does with an input connected to an output).
import { type Bipartite, UNASSIGNED, bipartiteFromLists } from './graph.ts';
import { type Matching, growMatching } from './matching.ts';

// (graph of the unknowns, its maximum matching, rows of candidate inputs per equation, number of inputs)
//   => the indices of the inputs the equations define (ascending): those matched once the matching has grown
export function definedInputs(graph: Bipartite, matching: Matching, inputRows: readonly number[][], nInputs: number): number[] {
  if (matching.size >= graph.nEq || nInputs === 0) return [];
  const n = graph.nVar;
  const rows: number[][] = [];
  for (let e = 0; e < graph.nEq; e++) {
    const row = Array.from(graph.eqAdj.subarray(graph.eqStart[e], graph.eqStart[e + 1]));
    for (const k of inputRows[e]) row.push(n + k);
    rows.push(row);
  }
  const grown = growMatching(bipartiteFromLists(n + nInputs, rows), matching);
  const out: number[] = [];
  for (let k = 0; k < nInputs; k++) if (grown.varToEq[n + k] !== UNASSIGNED) out.push(k);
  return out;
}
