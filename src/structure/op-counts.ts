// What one evaluation costs, counted per kind of operation: the unit of the
// planner's cost model (Cramer's rule against a run-time factorisation,
// src/structure/cramer.ts) and of the operations codegen counts as it prints
// (src/codegen/ops.ts re-exports it). Here because structure comes before
// codegen in the pipeline and must not import it.
export interface OpCounts {
  /** multiplications */
  mul: number;
  /** additions and subtractions */
  add: number;
  /** divisions */
  div: number;
  /** elementary function calls (sin, cos, sqrt, ...) */
  fn: number;
}
