// Operation counts of generated code: the counts and the cost models of the
// run-time solves live with the planner that chooses by them (structure/costs.ts).
export * from '../structure/costs.ts';
