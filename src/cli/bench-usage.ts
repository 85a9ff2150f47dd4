// `kron bench --help`, apart from bench.ts so that the command table can show it
// without loading the benchmark and its MuJoCo devDependency.
import { DEFAULT_SIZES, MODELS } from '../bench/models.ts';

export const BENCH_USAGE = `usage:
  kron bench [--json] [--n 1,2,4,...] [--models chain,puma560,tree,fourbar] [--out dir]
             [--max-torn-n N] [--compile-budget seconds] [--warmup-limit seconds] [--no-mujoco]

--n               chain sizes (default ${DEFAULT_SIZES.join(',')})
--models          models to run (default all: ${MODELS.map((m) => m.name).join(',')})
--out             where bench.json, bench.md and chain.svg go (default bench/results)
--max-torn-n      largest chain compiled torn (default 256, all)
--compile-budget  skip a compile predicted (from the two smaller ones) to take longer (default 30 s)
--warmup-limit    longest warm-up per row (default 60 s); a row that reaches it is marked * and
                  left out of the fits and ratios (the code may not be optimised yet)
--no-mujoco       leave out the MuJoCo peer
--json            print the rows as JSON: { model, n, mode, usPerEval, compileMs, ops[, warmupCapped] }
`;
