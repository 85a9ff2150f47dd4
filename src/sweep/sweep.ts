// A sweep: many runs of one model compiled once, on a pool of worker threads
// (every core here) or as jobs of a Redis queue (kron worker on any number of
// machines). sweep(model, spec) is the API: an async iterator of every run's
// values, status and metrics, in run order. On the pool, runs are made one
// at a time as threads take them and at most 8 per thread are in flight: a
// sweep of any size holds a few of them (a queued sweep enqueues them all).
import { type CompileOptions, compile } from '../compile.ts';
import type { CompiledModel } from '../codegen/compiled.ts';
import { KronError, UsageError } from '../errors.ts';
import type { Model } from '../model/index.ts';
import { checkSimulateOptions } from '../sim/simulate.ts';
import { SweepPool, checkWorkers, defaultWorkers } from './pool.ts';
import { metricHash } from './metric.ts';
import { inOrder } from './order.ts';
import type { QueueTarget } from './queue-config.ts';
import { withQueuePackages } from './optional.ts';
import type { RunOutcome, RunSettings } from './run.ts';
import { type PointsSpec, SweepPoints, expandRuns } from './runs.ts';
import { type Distribution, type GridAxis, parseDist, parseGrid } from './spec.ts';
import { type SweptKind, isOutcome, prepareTask, sweptKinds } from './tasks.ts';

export interface SweepSpec extends RunSettings {
  /** grid axes ('link2.m=1:5:9', 'j1.q=-1,0,1' or objects): every combination is a run */
  readonly grid?: readonly (GridAxis | string)[];
  /** Monte Carlo: this many runs, each with values drawn from `dist` */
  readonly samples?: number;
  /** the distributions the samples are drawn from ('link2.m~normal(1,0.1)' or objects) */
  readonly dist?: readonly (Distribution | string)[];
  /** the seed of the draws (default 1) */
  readonly seed?: number;
  /** how to compile (parameters that are swept are kept symbolic, whatever foldParameters says) */
  readonly compile?: CompileOptions;
  /** threads of the pool (default: the number of cores) */
  readonly workers?: number;
  /** a Redis URL (redis://host:port), or one with its key file, TLS files and timeout: the runs become BullMQ jobs for `kron worker` processes */
  readonly queue?: QueueTarget;
  /** called after every finished run */
  readonly onProgress?: (done: number, total: number) => void;
  /** a sweep of more than MAX_RUNS (10^6) runs is refused without it */
  readonly force?: boolean;
  /** the first run to do, on the pool: the runs before it are not run nor yielded (a sweep resumed from the rows it wrote) */
  readonly startAt?: number;
}

/** a run's result: its index, the swept values, ok or the error, the metrics */
export interface SweepResult extends RunOutcome {
  /** the swept parameters' and start values' values in this run */
  readonly values: Readonly<Record<string, number>>;
}

/** the spec's runs: grid or samples, never both */
export function sweepPoints(spec: Pick<SweepSpec, 'grid' | 'samples' | 'dist' | 'seed' | 'force'>): SweepPoints {
  const grid = spec.grid?.map((a) => (typeof a === 'string' ? parseGrid(a) : a)) ?? [];
  const dist = spec.dist?.map((d) => (typeof d === 'string' ? parseDist(d) : d)) ?? [];
  if (grid.length && (dist.length || spec.samples !== undefined))
    throw new UsageError('a sweep is a --grid or a Monte Carlo (--samples with --dist), not both', {
      hint: "run two sweeps, e.g. one with --grid 'j1.q=-1,0,1', one with --samples 100 --dist 'link2.m=normal(17.4,0.5)'",
    });
  if (dist.length && spec.samples === undefined)
    throw new UsageError('--dist needs --samples N: how many runs to draw', { hint: "e.g. --samples 100 --dist 'link2.m=normal(17.4,0.5)'" });
  if (spec.samples !== undefined && !dist.length)
    throw new UsageError('--samples needs at least one --dist', { hint: "e.g. --dist 'link2.m=normal(17.4,0.5)'" });
  const points: PointsSpec =
    grid.length || !dist.length ? { grid, force: spec.force } : { samples: spec.samples!, dist, seed: spec.seed ?? 1, force: spec.force };
  return expandRuns(points);
}

/** (model, spec) => every run's result, in run order; the model is compiled once, here */
export async function* sweep(model: Model, spec: SweepSpec): AsyncGenerator<SweepResult> {
  const points = sweepPoints(spec);
  const kinds = sweptKinds(model, points.names);
  const keep = kinds.includes('parameter');
  const compiled = compile(model, { ...spec.compile, foldParameters: keep ? false : spec.compile?.foldParameters });
  yield* sweepCompiled(compiled, points, kinds, spec);
}

/** (model compiled once, runs, which names are parameters, settings) => every run's result, in run order */
export async function* sweepCompiled(
  compiled: CompiledModel,
  runs: SweepPoints | Pick<SweepPoints, 'names' | 'values'>,
  kinds: readonly SweptKind[],
  spec: SweepSpec,
): AsyncGenerator<SweepResult> {
  checkSimulateOptions(spec.simulate);
  const points = SweepPoints.of(runs);
  checkNames(compiled, points, kinds);
  const settings: RunSettings = {
    simulate: spec.simulate,
    signals: spec.signals,
    metric: spec.metric,
    ...(spec.metric !== undefined && { metricHash: metricHash(spec.metric) }),
    detail: spec.detail,
  };
  const { count } = points;
  const withValues = (o: RunOutcome, values: readonly number[]): SweepResult => ({
    ...o,
    values: Object.fromEntries(points.names.map((n, k) => [n, values[k]])),
  });
  if (spec.queue !== undefined) {
    const { runQueued } = await withQueuePackages(() => import('./queue.ts'), 'a queued sweep (--queue)'); // BullMQ and ioredis only when a queue is used
    const tasks = Array.from({ length: count }, (_, i) => prepareTask(compiled, points, kinds, i));
    let done = 0;
    for await (const o of runQueued(spec.queue, compiled, tasks, settings, () => spec.onProgress?.(++done, count))) yield withValues(o, points.at(o.index));
    return;
  }
  const first = spec.startAt ?? 0;
  if (!(Number.isInteger(first) && first >= 0 && first <= count)) throw new UsageError(`startAt ${first} must be a whole number from 0 to the ${count} runs`);
  let done = first;
  const workers = checkWorkers(spec.workers ?? defaultWorkers());
  const pool = new SweepPool(compiled.portable(), settings, workers);
  try {
    // run i is made when a thread can take it (at most 8 per thread ahead of the one yielded next)
    const start = (j: number): Promise<SweepResult> => {
      const i = first + j,
        values = points.at(i),
        t = prepareTask(compiled, points, kinds, i);
      return (isOutcome(t) ? Promise.resolve(t) : pool.run(t)).then((o) => withValues(o, values));
    };
    yield* inOrder(count - first, start, workers * 8, () => spec.onProgress?.(++done, count));
  } finally {
    await pool.close();
  }
}

/** every swept start value names a state (or an unknown's first guess) and every parameter one that enters the code */
function checkNames(compiled: CompiledModel, points: SweepPoints, kinds: readonly SweptKind[]): void {
  points.names.forEach((name, k) => {
    const value = points.count ? points.at(0)[k] : 0;
    try {
      compiled.createState(kinds[k] === 'parameter' ? { parameters: { [name]: value } } : { start: { [name]: value } });
    } catch (e) {
      // a value the model rejects is that run's error; a name it cannot take is the sweep's
      if (e instanceof KronError && /^no (state|parameter) named|enters no equation|fixed at|folded into/.test(e.message)) {
        throw new UsageError(`the sweep cannot vary ${name}: ${e.message}`, { variables: [name], hint: e.details.hint });
      }
    }
  });
}
