// The runs of a sweep: a grid's points in nested-loop order (the first axis
// slowest), or N samples drawn from the distributions in order, run by run.
// Every run's values are fixed by the spec (the axes, or the seed), so results
// do not depend on how many workers there are or which one takes which run.
// The values are computed when asked for, a run at a time: a grid's run i
// from its digits in the axes' mixed radix, a sample by drawing on from the
// last one asked for. A sweep of a billion runs holds none of them.
import { UsageError } from '../errors.ts';
import { Random } from './random.ts';
import { type Distribution, type GridAxis, RangeAxis, axisAt, axisCount } from './spec.ts';

/** runs a sweep may have without --force (force: true from code) */
export const MAX_RUNS = 1e6;

/** grid axes, or samples drawn from distributions; force: more than MAX_RUNS runs are wanted */
export type PointsSpec = ({ grid: readonly GridAxis[] } | { samples: number; dist: readonly Distribution[]; seed: number }) & { force?: boolean };

/** the runs of a sweep: the swept names, and each run's values */
export class SweepPoints {
  /** values[i][k]: run i's value of names[k], all of them made when first read (from code; a sweep reads at()) */
  declare readonly values: readonly (readonly number[])[];
  readonly #at: (i: number) => readonly number[];
  readonly #spec: unknown;

  private constructor(
    /** the swept parameters and start values, in the order of each run's values */
    readonly names: readonly string[],
    /** how many runs */
    readonly count: number,
    at: (i: number) => readonly number[],
    spec: unknown,
  ) {
    this.#at = at;
    this.#spec = spec;
    let values: (readonly number[])[] | undefined;
    Object.defineProperty(this, 'values', { enumerable: true, get: () => (values ??= Array.from({ length: count }, (_, i) => this.at(i))) });
  }

  /** run i's values, in the order of names */
  at(i: number): readonly number[] {
    if (!(Number.isInteger(i) && i >= 0 && i < this.count)) throw new RangeError(`run ${i} is not one of the ${this.count} runs`);
    return this.#at(i);
  }

  /** what fixes every run's values, without the values: the axes (ranges as a:b:n), or the distributions, seed and count */
  describe(): unknown {
    return this.#spec;
  }

  /** a grid's runs: every combination of the axes' points */
  static grid(axes: readonly GridAxis[]): SweepPoints {
    const sizes = axes.map(axisCount);
    const at = (i: number) => {
      const run = new Array<number>(axes.length);
      for (let k = axes.length - 1; k >= 0; k--) {
        run[k] = axisAt(axes[k], i % sizes[k]);
        i = Math.floor(i / sizes[k]);
      }
      return run;
    };
    const spec = { grid: axes.map((a) => (a instanceof RangeAxis ? a.describe() : { name: a.name, values: a.values })) };
    return new SweepPoints(
      axes.map((a) => a.name),
      sizes.reduce((p, n) => p * n, 1),
      at,
      spec,
    );
  }

  /** n runs drawn from the distributions, run by run, with this seed */
  static samples(dist: readonly Distribution[], n: number, seed: number): SweepPoints {
    let random = new Random(seed),
      next = 0,
      last: readonly number[] = [];
    const draw = (d: Distribution) => (d.kind === 'normal' ? random.normal(d.a, d.b) : random.uniform(d.a, d.b));
    const at = (i: number) => {
      if (i < next - 1) ((random = new Random(seed)), (next = 0)); // backwards: draw again from the seed
      while (next <= i) ((last = dist.map(draw)), next++);
      return last;
    };
    return new SweepPoints(
      dist.map((d) => d.name),
      n,
      at,
      { samples: n, dist, seed },
    );
  }

  /** runs given value by value (sweepCompiled from code) */
  static of(
    points:
      | SweepPoints
      | {
          /** the swept names */
          readonly names: readonly string[];
          /** values[i][k]: run i's value of names[k] */
          readonly values: readonly (readonly number[])[];
        },
  ): SweepPoints {
    if (points instanceof SweepPoints) return points;
    return new SweepPoints(points.names, points.values.length, (i) => points.values[i], { names: points.names, values: points.values });
  }
}

function checkNames(names: readonly string[], flag: string): void {
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new UsageError(`${flag} names ${twice} twice`, { hint: `give each parameter or start value one ${flag}` });
  if (names.length === 0)
    throw new UsageError(`a sweep needs at least one ${flag}`, { hint: "e.g. --grid 'j1.q=-1,0,1', or --samples 100 --dist 'link2.m=normal(17.4,0.5)'" });
}

/** (grid axes | samples, distributions, seed) => the runs, each one's values made when asked for */
export function expandRuns(spec: PointsSpec): SweepPoints {
  let points: SweepPoints;
  if ('grid' in spec) {
    checkNames(
      spec.grid.map((a) => a.name),
      '--grid',
    );
    points = SweepPoints.grid(spec.grid);
  } else {
    checkNames(
      spec.dist.map((d) => d.name),
      '--dist',
    );
    if (!Number.isInteger(spec.samples) || spec.samples < 1)
      throw new UsageError(`--samples must be a whole number >= 1, got ${spec.samples}`, { hint: 'e.g. --samples 1000' });
    if (!Number.isInteger(spec.seed)) throw new UsageError(`--seed must be a whole number, got ${spec.seed}`, { hint: 'e.g. --seed 1' });
    points = SweepPoints.samples(spec.dist, spec.samples, spec.seed);
  }
  checkSize(points.count, spec.force === true);
  return points;
}

/** more than MAX_RUNS runs need force; more than 2^53 cannot be counted run by run */
function checkSize(count: number, force: boolean): void {
  const how = "fewer points (--grid 'x=a:b:n' with a smaller n, a smaller --samples)";
  if (count > Number.MAX_SAFE_INTEGER) throw new UsageError(`the sweep has ${count} runs, more than can be numbered (2^53)`, { hint: how });
  if (count > MAX_RUNS && !force) {
    throw new UsageError(`the sweep has ${count} runs, more than ${MAX_RUNS}: run it with --force (force: true from code)`, {
      hint: `${how}; with --force the runs are made one at a time as the sweep goes, the rows written as runs finish, and the same command resumes an interrupted sweep`,
    });
  }
}
