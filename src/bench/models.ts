// The benchmark's models and chain sizes: no imports, so that `kron bench --help`
// can list them without loading the benchmark.
export type BenchModel = 'chain' | 'puma560' | 'tree' | 'humanoid' | 'fourbar';

/** the benchmark's models: a module under mechanisms/ and whether it is swept over its parameter n */
export const MODELS: readonly { name: BenchModel; file: string; sweep?: boolean; parameters?: Record<string, number> }[] = [
  { name: 'chain', file: 'mechanisms/chain.ts', sweep: true },
  // without the joint limits: MuJoCo's peer has none (its limits are constraints, another model)
  { name: 'puma560', file: 'mechanisms/puma560.ts', parameters: { limits: 0 } },
  { name: 'tree', file: 'mechanisms/tree.ts' },
  // branched: five branches off two hubs, 32 dof (branch-induced sparsity, Featherstone 2005)
  { name: 'humanoid', file: 'mechanisms/humanoid.ts' },
  { name: 'fourbar', file: 'mechanisms/fourbar.ts' },
];

/** chain sizes of the sweep */
export const DEFAULT_SIZES = [1, 2, 4, 8, 16, 32, 64, 128, 256];
