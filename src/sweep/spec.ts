// The values a sweep runs over, from the command line's text or the API's
// objects: --grid axes (a Cartesian product) or --samples N draws from
// --dist distributions with --seed. Parsing only; runs.ts expands them.
import { UsageError } from '../errors.ts';

/** one axis of a grid: a parameter or start value and the values it takes */
export interface GridAxis {
  /** the parameter or start value (a signal name: j1.q, b1.m) */
  readonly name: string;
  /** the values, in run order */
  readonly values: readonly number[];
}

/**
 * A range axis a:b:n, its points computed when asked for: a billion points
 * take no memory until someone reads `values` (the sweep never does; it
 * asks for one point at a time with at()).
 */
export class RangeAxis implements GridAxis {
  declare readonly values: readonly number[];
  readonly #a: number;
  readonly #b: number;
  readonly #n: number;

  constructor(
    readonly name: string,
    a: number,
    b: number,
    n: number,
  ) {
    ((this.#a = a), (this.#b = b), (this.#n = n));
    let values: number[] | undefined;
    // an own, enumerable property as a plain axis has (JSON, toEqual), computed on first read
    Object.defineProperty(this, 'values', { enumerable: true, get: () => (values ??= Array.from({ length: n }, (_, k) => this.at(k))) });
  }

  get count(): number {
    return this.#n;
  }

  /** the k-th point: the last one is b itself, not a + (b - a) rounded */
  at(k: number): number {
    const a = this.#a,
      b = this.#b,
      n = this.#n;
    return n === 1 ? a : k === n - 1 ? b : a + ((b - a) * k) / (n - 1);
  }

  /** what identifies the axis without its points (a resumed sweep compares it) */
  describe(): { name: string; range: [number, number, number] } {
    return { name: this.name, range: [this.#a, this.#b, this.#n] };
  }
}

/** points on the axis */
export const axisCount = (axis: GridAxis): number => (axis instanceof RangeAxis ? axis.count : axis.values.length);

/** the axis's k-th point */
export const axisAt = (axis: GridAxis, k: number): number => (axis instanceof RangeAxis ? axis.at(k) : axis.values[k]);

/** a parameter or start value drawn at random in every run */
export interface Distribution {
  /** the parameter or start value (a signal name: j1.q, b1.m) */
  readonly name: string;
  /** normal(a = mean, b = standard deviation) or uniform(a = low, b = high) */
  readonly kind: 'normal' | 'uniform';
  /** the mean (normal) or the lower bound (uniform) */
  readonly a: number;
  /** the standard deviation (normal) or the upper bound (uniform) */
  readonly b: number;
}

const GRID_HINT = "e.g. --grid 'link2.m=1:5:9' (9 points from 1 to 5) or --grid 'j1.q=-1,0,1'";
const DIST_HINT = "e.g. --dist 'link2.m=normal(17.4,0.5)' or --dist 'j2.q=uniform(-0.5,0.5)'";

function finite(flag: string, spec: string, text: string, hint: string): number {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) throw new UsageError(`${flag} "${spec}": "${text}" is not a number`, { hint });
  return v;
}

/** name=value text split at the first '=' */
function nameValue(flag: string, spec: string, hint: string): [string, string] {
  const i = spec.indexOf('=');
  if (i <= 0 || i === spec.length - 1) throw new UsageError(`${flag} expects name=values, got "${spec}"`, { hint });
  return [spec.slice(0, i).trim(), spec.slice(i + 1).trim()];
}

/** 'link.m=1:5:9' => 9 points from 1 to 5, both ends included; 'j1.q=-1,0,1' => those values */
export function parseGrid(spec: string): GridAxis {
  const [name, text] = nameValue('--grid', spec, GRID_HINT);
  if (text.includes(':')) {
    const parts = text.split(':');
    if (parts.length !== 3) throw new UsageError(`--grid "${spec}": a range is a:b:n (n points from a to b)`, { hint: GRID_HINT });
    const [a, b, n] = parts.map((p) => finite('--grid', spec, p, GRID_HINT));
    if (!Number.isInteger(n) || n < 1)
      throw new UsageError(`--grid "${spec}": the number of points n of a:b:n must be a whole number >= 1, got ${n}`, { hint: GRID_HINT });
    return new RangeAxis(name, a, b, n);
  }
  return { name, values: text.split(',').map((p) => finite('--grid', spec, p, GRID_HINT)) };
}

/** 'link.m=normal(2,0.1)' | 'link.m=uniform(1,3)' => the distribution */
export function parseDist(spec: string): Distribution {
  const [name, text] = nameValue('--dist', spec, DIST_HINT);
  const m = /^(normal|uniform)\(([^,()]*),([^,()]*)\)$/.exec(text.replace(/\s+/g, ''));
  if (!m) throw new UsageError(`--dist "${spec}": expected normal(mean,sd) or uniform(low,high)`, { hint: DIST_HINT });
  const kind = m[1] as Distribution['kind'];
  const [a, b] = [finite('--dist', spec, m[2], DIST_HINT), finite('--dist', spec, m[3], DIST_HINT)];
  if (kind === 'normal' && b < 0) throw new UsageError(`--dist "${spec}": the standard deviation must be >= 0`, { hint: DIST_HINT });
  if (kind === 'uniform' && b < a) throw new UsageError(`--dist "${spec}": uniform(low,high) needs low <= high`, { hint: DIST_HINT });
  return { name, kind, a, b };
}
