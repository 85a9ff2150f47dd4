// Sweep and prune (Baraff 1992; Cohen et al., I-COLLIDE 1995): the pairs of
// finite geometries whose axis-aligned bounds overlap, without testing all
// n^2/2 pairs. The boxes are sorted by their lower end along the axis where
// the centres spread most, then swept: a box is tested against the boxes
// still open at its lower end, on the other two axes. The order is kept
// between calls and re-sorted by insertion, which is O(n) when bodies moved
// little since the last call (temporal coherence); a first call is O(n^2) at
// worst, like any insertion sort, and costs microseconds for robot scenes.
// Unbounded geometries (planes) are not swept: the caller pairs each with
// every other geometry.

export class SweepAndPrune {
  private order: Int32Array;
  private open: Int32Array;
  /** the overlapping pairs found by the last find(): indices 2k and 2k+1 */
  pairs: Int32Array;
  pairCount = 0;

  constructor(readonly count: number) {
    this.order = Int32Array.from({ length: count }, (_, i) => i);
    this.open = new Int32Array(count);
    this.pairs = new Int32Array(2 * Math.max(count, 4));
  }

  // (bounds: stride 6, min xyz then max xyz, of geometries 0..count-1) => this.pairs, each pair (i, j) with i < j once
  find(bounds: Float64Array): void {
    const n = this.count,
      order = this.order;
    this.pairCount = 0;
    const axis = spreadAxis(bounds, n);
    // insertion sort by lower end on the axis
    for (let k = 1; k < n; k++) {
      const g = order[k],
        lo = bounds[6 * g + axis];
      let m = k - 1;
      while (m >= 0 && bounds[6 * order[m] + axis] > lo) ((order[m + 1] = order[m]), m--);
      order[m + 1] = g;
    }
    let opened = 0;
    for (let k = 0; k < n; k++) {
      const g = order[k],
        lo = bounds[6 * g + axis];
      // close the boxes that end before this one starts
      let kept = 0;
      for (let m = 0; m < opened; m++) {
        const o = this.open[m];
        if (bounds[6 * o + 3 + axis] >= lo) {
          this.open[kept++] = o;
          if (overlapOthers(bounds, g, o, axis)) this.add(Math.min(g, o), Math.max(g, o));
        }
      }
      this.open[kept] = g;
      opened = kept + 1;
    }
  }

  private add(i: number, j: number): void {
    if (2 * this.pairCount === this.pairs.length) {
      const more = new Int32Array(2 * this.pairs.length);
      more.set(this.pairs);
      this.pairs = more;
    }
    this.pairs[2 * this.pairCount] = i;
    this.pairs[2 * this.pairCount + 1] = j;
    this.pairCount++;
  }
}

/** do boxes a and b overlap on the two axes other than `axis` */
function overlapOthers(b: Float64Array, g: number, o: number, axis: number): boolean {
  for (let i = 0; i < 3; i++) {
    if (i === axis) continue;
    if (b[6 * g + i] > b[6 * o + 3 + i] || b[6 * o + i] > b[6 * g + 3 + i]) return false;
  }
  return true;
}

/** the axis along which the boxes' centres have the largest variance */
function spreadAxis(b: Float64Array, n: number): number {
  let best = 0,
    most = -1;
  for (let i = 0; i < 3; i++) {
    let s = 0,
      s2 = 0;
    for (let g = 0; g < n; g++) {
      const c = b[6 * g + i] + b[6 * g + 3 + i];
      ((s += c), (s2 += c * c));
    }
    const v = s2 - (s * s) / Math.max(n, 1);
    if (v > most) ((most = v), (best = i));
  }
  return best;
}
