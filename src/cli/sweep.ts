// `kron sweep`: one model compiled once, run over a grid or Monte Carlo
// samples of its parameters and start values on every core (or as jobs of a
// Redis queue for `kron worker` processes), one CSV row of metrics per run.
// Rows are kept as runs finish, in the partial file beside --out (or a spool
// file in the temporary folder for stdout), and the CSV is made from it at
// the end: an interrupted sweep keeps its runs, and the same command resumes.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from '../errors.ts';
import {
  COMPILE_OPTIONS,
  MODEL_FLAGS,
  SIMULATE_OPTIONS,
  applyTimeouts,
  checkMode,
  compileFrom,
  negativeValues,
  number,
  simulateOptions,
  warnUnsafeStep,
} from './model-commands.ts';
import { loadMetric } from '../sweep/metric.ts';
import { type Io, terminal } from './io.ts';
import { sweepBar } from './progress.ts';
import { sweepCompiled, sweepPoints } from '../sweep/sweep.ts';
import { sweptKinds } from '../sweep/tasks.ts';
import { PartialSweep, sweepIdentity } from '../sweep/partial.ts';
import { MAX_RUNS } from '../sweep/runs.ts';
import { defaultWorkers } from '../sweep/pool.ts';
import type { RunSettings } from '../sweep/run.ts';
import { writeOutput } from '../node/output-file.ts';
import { onInterrupt } from './interrupt.ts';
import { PRODUCER_FLAGS, queueHelp, queueConfig } from './queue-flags.ts';
import { shipped } from '../node/package.ts';

export const SWEEP_HELP = `usage: kron sweep <model.ts|robot.urdf> (--grid name=spec ... | --samples N --dist name=dist ...) [options]

Compiles the model once and runs it for every point of a grid, or for N
Monte Carlo samples, of its parameters and start values, on every core here
(worker threads) or through a Redis queue that \`kron worker\` processes on any
number of machines consume. Writes one CSV row per run, in run order:
  run, <swept names>, status (ok|error), error, final(s), min(s), max(s) of each
  signal s, then the --metric columns
A run that fails (a singular position, say) is a row with status error and its
message; the sweep goes on. Runs are kept as they finish in <out>.partial; the
CSV is made from it at the end. Interrupted (Ctrl-C, SIGTERM, a crash, a full
disk), the same command again resumes from the runs it holds.

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
                     columns, computed from each run's SimulationResult; a value that is not a
                     finite number, or a name that is already a column, is an error row
  --out file.csv     the results (default: stdout)
  --detail dir       also write each run's sampled signals to dir/run-000012.csv
  --workers N        threads (default: the number of cores, ${defaultWorkers()} here)
  --force            run a sweep of more than ${MAX_RUNS} runs (each run's values are made as
                     the sweep goes: memory stays bounded on the pool)
  --queue redis://host:port
                     enqueue the runs as BullMQ jobs and collect the results of \`kron worker
                     --queue\` processes; the same command again skips the runs already done
  --queue-timeout s  how long Redis may stay unreachable before the sweep fails, and how long
                     without a result before the producer says what the queue holds (default 60)
${queueHelp(21)}

${MODEL_FLAGS}

simulation options (as kron simulate): --stop T (default 1), --step h, --interval dt,
  --integrator auto|rk4|adaptive|radau, --rtol r, --atol a; --call-timeout s: the time one call of the
  --metric may take, in seconds (default 10; KRON_CALL_TIMEOUT for kron worker)

examples:
  kron sweep mechanisms/pendulum.ts --grid 'j1.q=-1,0,1' --grid 'body.m=1:2:3' --stop 1 --out /tmp/s.csv
  kron sweep mechanisms/puma560.ts --samples 100 --dist 'link2.m=normal(17.4,0.5)' --seed 7 --stop 5 --signals j2.q
  kron sweep mechanisms/pendulum.ts --grid 'j1.q=0:1:11' --queue redis://127.0.0.1:6379 --key-file queue.key --out /tmp/q.csv
`;

// a controller is a function in a module of this process, not yet one that runs elsewhere; a sweep runs no
// contact, so --contact, --self-contact and --friction are unknown options here rather than taken and ignored
const { controller: _controller, contact: _contact, 'self-contact': _selfContact, friction: _friction, ...SIMULATE_FLAGS } = SIMULATE_OPTIONS;

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
  force: { type: 'boolean', default: false },
  ...PRODUCER_FLAGS,
} satisfies ParseArgsConfig['options'];

export async function runSweep(args: string[], io: Io): Promise<void> {
  const { values, positionals } = parseArgs({ args: negativeValues(args, SWEEP_OPTIONS), options: SWEEP_OPTIONS, allowPositionals: true, strict: true });
  const [file, ...extra] = positionals;
  if (!file)
    throw new UsageError('kron sweep needs a model file', { hint: shipped("kron sweep mechanisms/pendulum.ts --grid 'j1.q=-1,0,1'; kron sweep --help") });
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`, { hint: 'kron sweep takes one model file; kron sweep --help' });
  checkMode(values.mode);
  const queue = queueConfig(values, values.queue, io);
  const whole = (flag: string, text: string | undefined) => (text === undefined ? undefined : number(flag, text));
  const points = sweepPoints({
    grid: values.grid,
    samples: whole('--samples', values.samples),
    dist: values.dist,
    seed: whole('--seed', values.seed),
    force: values.force,
  });
  const { signals, ...simulate } = simulateOptions(values);
  warnUnsafeStep(simulate, io);
  applyTimeouts(values);
  // imported here first: its errors (an exception, process.exit, an endless import) are the sweep's, said once, not every run's
  if (values.metric !== undefined) await loadMetric(values.metric);
  let kinds: ReturnType<typeof sweptKinds> = [];
  // swept parameters change per run in the compiled code: it keeps parameters symbolic then
  const { compiled } = await compileFrom(file, values, io, 'forward', {
    keepParameters: (model) => (kinds = sweptKinds(model, points.names)).includes('parameter'),
  });
  const settings: RunSettings = { simulate, signals, metric: values.metric, detail: values.detail };
  const identity = sweepIdentity(compiled, points, settings);
  // a queued sweep resumes through Redis (its runs done are there): its partial file starts afresh
  const partial =
    values.out === undefined
      ? PartialSweep.open(join(tmpdir(), `kron-sweep-${process.pid}-${identity.hash}.partial`), identity, false)
      : PartialSweep.open(`${values.out}.partial`, identity, values.queue === undefined);
  if (partial.done) io.stderr.write(`resuming: ${partial.done} of ${points.count} runs are in ${partial.path}\n`);
  const bar = sweepBar(terminal(io), points.count);
  const left = () =>
    values.out === undefined
      ? (partial.remove(), 'no CSV was written (give --out to keep the runs as they finish)')
      : `${partial.done} of ${points.count} runs are in ${partial.path}; the same command again resumes from there`;
  const dispose = onInterrupt(io, left);
  const counts = { runs: 0, failed: 0 };
  try {
    const spec = {
      ...settings,
      workers: whole('--workers', values.workers),
      queue,
      force: values.force,
      startAt: partial.done,
      onProgress: (done: number) => bar.update(done),
    };
    for await (const r of sweepCompiled(compiled, points, kinds, spec)) partial.append(r);
    bar.stop();
    if (values.out === undefined) {
      for (const piece of partial.csv(counts)) io.stdout.write(piece);
    } else {
      writeOutput(values.out, partial.csv(counts));
    }
    partial.remove();
  } finally {
    bar.stop();
    dispose();
    // kept when it holds runs to resume from
    if (values.out === undefined || partial.done === 0) partial.remove();
  }
  if (values.out) io.stderr.write(`wrote ${counts.runs} runs (${counts.failed} failed) to ${values.out}\n`);
  else if (counts.failed) io.stderr.write(`${counts.failed} of ${counts.runs} runs failed\n`);
}
