// The run-time helpers generated code calls, for the code that calls them
// directly (the compiled model's workspace, the pose watch, tests): the
// solves of torn systems (runtime/dense.ts, runtime/cholesky.ts), the
// drivers of torn loops (runtime/newton.ts, runtime/columns.ts) and the
// relaxed pivot test (runtime/pivot.ts), ordinary TypeScript modules. A
// generated module carries the same functions as JavaScript text, only
// those it calls (runtime/source.ts, made from these sources by
// scripts/runtime-parts.ts).
export type { Workspace, Piece, Step, Report } from './runtime/types.ts';
export { doubles, luSolve, singularBelow } from './runtime/dense.ts';
export { choleskySolve, choleskyTiny, isSymmetric, nearSymmetric, sparseCholeskySolve, sparseNearSymmetric } from './runtime/cholesky.ts';
export { type NewtonBlock, newtonBlock, newtonSolve, signWatch } from './runtime/newton.ts';
export { type ColumnsBlock, columnsBlock, columnsForm } from './runtime/columns.ts';
export { pivotOk } from './runtime/pivot.ts';
export { type RuntimeName, runtimeSource } from './runtime/source.ts';
