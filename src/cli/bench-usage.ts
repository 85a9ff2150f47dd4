// `kron bench --help`, apart from bench.ts so that the command table can show it
// without loading the benchmark and its MuJoCo devDependency.
import { DEFAULT_SIZES, MODELS } from '../bench/models.ts';

export const BENCH_USAGE = `usage:
  kron bench [--json] [--n 1,2,4,...] [--models chain,puma560,tree,fourbar] [--out dir]
             [--max-torn-n N] [--compile-budget seconds] [--warmup-limit seconds] [--rounds N]
             [--no-mujoco] [--target js|wasm]

Times are CPU time of the process (process.cpuUsage()): every compiled form is warmed
up, then all are timed in --rounds interleaved rounds of one ~15 ms batch each (median,
and the fastest round). Then an ArrayBuffer is detached (as MuJoCo's WebAssembly memory
does when it grows): Kron is timed again, in the same rounds as MuJoCo's mj_forward.

--n               chain sizes (default ${DEFAULT_SIZES.join(',')})
--models          models to run (default all: ${MODELS.map((m) => m.name).join(',')})
--out             where bench.json, bench.md and chain.svg go (default bench/results)
--max-torn-n      largest chain compiled torn (default 256, all)
--compile-budget  skip a compile predicted (from the two smaller ones) to take longer (default 30 s of CPU)
--warmup-limit    longest warm-up per row (default 60 s of CPU); a row that reaches it is marked * and
                  left out of the fits and ratios (the code may not be optimised yet)
--rounds          interleaved timing rounds (default 15)
--no-mujoco       leave out the MuJoCo peer (and the rows after a detach)
--target          the code Kron's forms run: js (default) or wasm (docs/performance/benchmarks.md, WebAssembly target)
--json            print the rows as JSON: { model, n, mode, usPerEval, usMin, compileMs, compileCpuMs,
                  ops[, warmupCapped][, afterDetach] }
`;
