// expr/: scalar symbolic expressions (hash-consed DAG), differentiation,
// linear coefficients, evaluation, printing, 3-vector helpers.
export * from './node.ts';
export * from './build.ts';
export * from './analysis.ts';
export { along, diff } from './diff.ts';
export { fold } from './fold.ts';
export { show } from './print.ts';
export { FUNCTIONS } from './functions.ts';
export * from './vec.ts';
