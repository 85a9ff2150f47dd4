// The runs of a sweep, generated up front in the producer: a grid's points in
// nested-loop order (the first axis slowest), or N samples drawn from the
// distributions in order, run by run. Every run's values are fixed before
// any run starts, so results do not depend on how many workers there are or
// which one takes which run.
import { UsageError } from '../errors.ts';
import { Random } from './random.ts';
import type { Distribution, GridAxis } from './spec.ts';

export interface SweepPoints {
  /** the swept names, the columns of `values` */
  readonly names: readonly string[];
  /** values[i][k]: run i's value of names[k] */
  readonly values: readonly (readonly number[])[];
}

/** grid axes, or samples drawn from distributions */
export type PointsSpec = { grid: readonly GridAxis[] } | { samples: number; dist: readonly Distribution[]; seed: number };

function checkNames(names: readonly string[], flag: string): void {
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new UsageError(`${flag} names ${twice} twice`, { hint: `give each parameter or start value one ${flag}` });
  if (names.length === 0) throw new UsageError(`a sweep needs at least one ${flag}`, { hint: "e.g. --grid 'j1.q=-1,0,1', or --samples 100 --dist 'link2.m=normal(17.4,0.5)'" });
}

// (grid axes | samples, distributions, seed) => every run's values
export function expandRuns(spec: PointsSpec): SweepPoints {
  if ('grid' in spec) {
    const names = spec.grid.map((a) => a.name);
    checkNames(names, '--grid');
    let values: number[][] = [[]];
    for (const axis of spec.grid) values = values.flatMap((v) => axis.values.map((x) => [...v, x]));
    return { names, values };
  }
  const names = spec.dist.map((d) => d.name);
  checkNames(names, '--dist');
  if (!Number.isInteger(spec.samples) || spec.samples < 1) throw new UsageError(`--samples must be a whole number >= 1, got ${spec.samples}`, { hint: 'e.g. --samples 1000' });
  if (!Number.isInteger(spec.seed)) throw new UsageError(`--seed must be a whole number, got ${spec.seed}`, { hint: 'e.g. --seed 1' });
  const random = new Random(spec.seed);
  const draw = (d: Distribution) => (d.kind === 'normal' ? random.normal(d.a, d.b) : random.uniform(d.a, d.b));
  return { names, values: Array.from({ length: spec.samples }, () => spec.dist.map(draw)) };
}
