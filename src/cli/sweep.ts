// `kron sweep`: one model compiled once, run over a grid or Monte Carlo
// samples of its parameters and start values on every core (or as jobs of a
// Redis queue for `kron worker` processes), one CSV row of metrics per run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from '../errors.ts';
import { COMPILE_OPTIONS, MODEL_FLAGS, SIMULATE_OPTIONS, applyTimeouts, checkMode, compileFrom, negativeValues, number, simulateOptions } from './model-commands.ts';
import { loadMetric } from '../sweep/metric.ts';
import { type Io, terminal } from './io.ts';
import { sweepBar } from './progress.ts';
import { type SweepResult, sweepCompiled, sweepPoints } from '../sweep/sweep.ts';
import { sweptKinds } from '../sweep/tasks.ts';
import { sweepCSV } from '../sweep/csv.ts';
import { defaultWorkers } from '../sweep/pool.ts';

export const SWEEP_HELP = `usage: kron sweep <model.ts|robot.urdf> (--grid name=spec ... | --samples N --dist name=dist ...) [options]

Compiles the model once and runs it for every point of a grid, or for N
Monte Carlo samples, of its parameters and start values, on every core here
(worker threads) or through a Redis queue that \`kron worker\` processes on any
number of machines consume. Writes one CSV row per run, in run order:
  run, <swept names>, status (ok|error), error, final(s), min(s), max(s) of each
  signal s, then the --metric columns
A run that fails (a singular position, say) is a row with status error and its
message; the sweep goes on.

sweep options:
  --grid name=a:b:n  n points from a to b (both included); name=v1,v2,... those values;
                     repeatable: every combination is a run (the first --grid varies slowest)
  --samples N        Monte Carlo: N runs, values drawn from the --dist distributions
  --dist name=normal(mean,sd) | name=uniform(low,high)
                     repeatable; drawn run by run in the order given
  --seed S           the seed of the draws (default 1): the same seed, the same samples
  name               a model parameter by hierarchical name (link2.m: the code keeps
                     parameters symbolic then, see --keep-parameters) or a state's start value (j1.q)
  --signals a,b,...  the signals whose final value, min and max are kept (default: the states)
  --metric m.ts      a module whose default export (result) => number | { name: number } adds
                     columns, computed from each run's SimulationResult
  --out file.csv     the results (default: stdout)
  --detail dir       also write each run's sampled signals to dir/run-000012.csv
  --workers N        threads (default: the number of cores, ${defaultWorkers()} here)
  --queue redis://host:port
                     enqueue the runs as BullMQ jobs and collect the results of \`kron worker
                     --queue\` processes; the same command again skips the runs already done

${MODEL_FLAGS}

simulation options (as kron simulate): --stop T (default 1), --step h, --interval dt,
  --integrator rk4|adaptive, --rtol r, --atol a; --call-timeout s: the time one call of the
  --metric may take, in seconds (default 10; KRON_CALL_TIMEOUT for kron worker)

examples:
  kron sweep mechanisms/pendulum.ts --grid 'j1.q=-1,0,1' --grid 'body.m=1:2:3' --stop 1 --out /tmp/s.csv
  kron sweep mechanisms/puma560.ts --samples 100 --dist 'link2.m=normal(17.4,0.5)' --seed 7 --stop 5 --signals j2.q
  kron sweep mechanisms/pendulum.ts --grid 'j1.q=0:1:11' --queue redis://127.0.0.1:6379 --out /tmp/q.csv
`;

// a controller is a function in a module of this process, not yet one that runs elsewhere
const { controller: _controller, ...SIMULATE_FLAGS } = SIMULATE_OPTIONS;

const SWEEP_OPTIONS = {
  ...COMPILE_OPTIONS,
  ...SIMULATE_FLAGS,
  grid: { type: 'string', multiple: true },
  samples: { type: 'string' },
  dist: { type: 'string', multiple: true },
  seed: { type: 'string' },
  metric: { type: 'string' },
  detail: { type: 'string' },
  workers: { type: 'string' },
  queue: { type: 'string' },
} satisfies ParseArgsConfig['options'];

export async function runSweep(args: string[], io: Io): Promise<void> {
  const { values, positionals } = parseArgs({ args: negativeValues(args, SWEEP_OPTIONS), options: SWEEP_OPTIONS, allowPositionals: true, strict: true });
  const [file, ...extra] = positionals;
  if (!file) throw new UsageError('kron sweep needs a model file', { hint: "kron sweep mechanisms/pendulum.ts --grid 'j1.q=-1,0,1'; kron sweep --help" });
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`, { hint: 'kron sweep takes one model file; kron sweep --help' });
  checkMode(values.mode);
  const whole = (flag: string, text: string | undefined) => (text === undefined ? undefined : number(flag, text));
  const points = sweepPoints({ grid: values.grid, samples: whole('--samples', values.samples), dist: values.dist, seed: whole('--seed', values.seed) });
  const { signals, ...simulate } = simulateOptions(values);
  applyTimeouts(values);
  // imported here first: its errors (an exception, process.exit, an endless import) are the sweep's, said once, not every run's
  if (values.metric !== undefined) await loadMetric(values.metric);
  let kinds: ReturnType<typeof sweptKinds> = [];
  // swept parameters change per run in the compiled code: it keeps parameters symbolic then
  const { compiled } = await compileFrom(file, values, io, 'forward', { keepParameters: (model) => (kinds = sweptKinds(model, points.names)).includes('parameter') });
  const bar = sweepBar(terminal(io), points.values.length);
  const results: SweepResult[] = [];
  try {
    const spec = { simulate, signals, metric: values.metric, detail: values.detail, workers: whole('--workers', values.workers), queue: values.queue, onProgress: (done: number) => bar.update(done) };
    for await (const r of sweepCompiled(compiled, points, kinds, spec)) results.push(r);
  } finally {
    bar.stop();
  }
  const csv = sweepCSV(points.names, results);
  const failed = results.filter((r) => r.status === 'error').length;
  if (values.out) {
    mkdirSync(dirname(values.out), { recursive: true });
    writeFileSync(values.out, csv);
    io.stderr.write(`wrote ${results.length} runs (${failed} failed) to ${values.out}\n`);
  } else {
    io.stdout.write(csv);
    if (failed) io.stderr.write(`${failed} of ${results.length} runs failed\n`);
  }
}
