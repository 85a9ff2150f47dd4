// library/bondgraph: the bond-graph elements of the bond graph tearing paper
// (fig. 1-3, sections 3 and 5) and its section-4 loop heuristic.
export { port } from './port.ts';
export { Se } from './se.ts';
export { R } from './r.ts';
export { C } from './c.ts';
export { ResSf } from './res-sf.ts';
export { ResSe } from './res-se.ts';
export { ZeroJunction } from './zero-junction.ts';
export { OneJunction } from './one-junction.ts';
export * from './loops.ts';
