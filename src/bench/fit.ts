// src/bench/fit: the numbers the benchmark concludes with, from its timings.
//   slope      least-squares slope of log(time) over log(n): time ~ n^slope
//   crossover  where the relaxed form becomes faster than the torn one for good
export interface Point {
  n: number;
  y: number;
}

/** log y = intercept + slope log n */
export interface LogLogFit {
  slope: number;
  intercept: number;
}

// (points, at least two distinct n) => least-squares line of log y against log n
export function logLogFit(points: readonly Point[]): LogLogFit {
  const xs = points.map((p) => Math.log(p.n)),
    ys = points.map((p) => Math.log(p.y));
  const mx = mean(xs),
    my = mean(ys);
  let sxy = 0,
    sxx = 0;
  xs.forEach((x, i) => {
    sxy += (x - mx) * (ys[i] - my);
    sxx += (x - mx) ** 2;
  });
  if (!(sxx > 0)) throw new RangeError('a slope needs points at two or more distinct n');
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

export interface Crossover {
  /** the smallest measured n from which on relaxed is faster at every n measured in both modes */
  from: number;
  /** n where log(relaxed / torn) crosses 0, interpolated linearly in log n; undefined if relaxed wins at every n */
  at?: number;
}

// (torn and relaxed times by n) => where relaxed overtakes torn, undefined if it is not faster at the largest common n
export function crossover(torn: readonly Point[], relaxed: readonly Point[]): Crossover | undefined {
  const tornAt = new Map(torn.map((p) => [p.n, p.y]));
  const both = relaxed
    .filter((p) => tornAt.has(p.n))
    .sort((a, b) => a.n - b.n)
    .map((p) => ({ n: p.n, r: Math.log(p.y / tornAt.get(p.n)!) }));
  let k = both.length;
  while (k > 0 && both[k - 1].r < 0) k--;
  if (k === both.length) return undefined;
  if (k === 0) return { from: both[0].n };
  const a = both[k - 1],
    b = both[k];
  const t = a.r / (a.r - b.r);
  return { from: b.n, at: Math.exp(Math.log(a.n) + t * (Math.log(b.n) - Math.log(a.n))) };
}

// (points, n range) => the points with lo <= n <= hi
export const within = (points: readonly Point[], lo: number, hi: number): Point[] => points.filter((p) => p.n >= lo && p.n <= hi);

const mean = (v: readonly number[]) => v.reduce((s, x) => s + x, 0) / v.length;
