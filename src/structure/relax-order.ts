// The relaxed BLT order (relaxing paper, section 4): the blocks of a loop
// sorted with the relax() occurrences left out, put in an order that also
// honours the relax marks where it can.
import { symsOf, unrelaxedSymsOf } from '../expr/index.ts';
import type { FlatEquation } from '../model/index.ts';

/**
 * The blocks of the relaxed BLT form in an order that also honours the relax
 * marks where it can: a block whose rows relax x goes before the block that
 * computes x (x is "later", as in eq. 7), so that x's form reaches the rows
 * that need it and the updates stay as sparse as in eq. 12. The BLT
 * dependencies are hard; the relax precedences break ties, so the result does
 * not depend on the order in which components were declared.
 */
export function relaxedOrder(blocks: number[][], eqs: readonly FlatEquation[], local: Map<number, number>, varToEq: Int32Array): number[][] {
  const blockOfEq = new Map<number, number>();
  blocks.forEach((b, i) => b.forEach((e) => blockOfEq.set(e, i)));
  const blockOfVar = (id: number) => {
    const v = local.get(id);
    return v === undefined || varToEq[v] < 0 ? undefined : blockOfEq.get(varToEq[v]);
  };
  const hard = blocks.map(() => new Set<number>());
  const soft = blocks.map(() => new Set<number>());
  blocks.forEach((rows, i) => {
    for (const r of rows) {
      const visible = new Set(unrelaxedSymsOf(eqs[r].residual));
      for (const id of symsOf(eqs[r].residual)) {
        const j = blockOfVar(id);
        if (j === undefined || j === i) continue;
        if (visible.has(id))
          hard[i].add(j); // i needs j's variable
        else soft[j].add(i); // i relaxes j's variable: i should go first
      }
    }
  });
  // Kahn's algorithm on the hard edges; among ready blocks first those whose relaxing rows are all
  // done (class 0), then those nobody relaxes (1), then the rest (2); ties in BLT order
  const hardLeft = hard.map((h) => h.size);
  const softLeft = soft.map((x) => x.size);
  const dependents = blocks.map(() => [] as number[]);
  const relaxes = blocks.map(() => [] as number[]);
  hard.forEach((h, i) => h.forEach((j) => dependents[j].push(i)));
  soft.forEach((x, i) => x.forEach((j) => relaxes[j].push(i)));
  const n = blocks.length;
  const rank = (i: number) => (softLeft[i] === 0 ? (soft[i].size > 0 ? 0 : 1) : 2) * n + i;
  const heap = new MinHeap();
  blocks.forEach((_, i) => hardLeft[i] === 0 && heap.push(rank(i)));
  const done = new Uint8Array(n);
  const out: number[][] = [];
  while (heap.size > 0) {
    const i = heap.pop() % n;
    if (done[i]) continue;
    done[i] = 1;
    out.push(blocks[i]);
    for (const d of dependents[i]) if (--hardLeft[d] === 0) heap.push(rank(d));
    for (const s of relaxes[i]) if (--softLeft[s] === 0 && hardLeft[s] === 0 && !done[s]) heap.push(rank(s));
  }
  return out;
}

/** a binary min-heap of integers */
class MinHeap {
  private readonly a: number[] = [];
  get size(): number {
    return this.a.length;
  }
  push(x: number): void {
    const a = this.a;
    let i = a.push(x) - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p] <= a[i]) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): number {
    const a = this.a;
    const top = a[0];
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1,
          r = l + 1;
        let m = i;
        if (l < a.length && a[l] < a[m]) m = l;
        if (r < a.length && a[r] < a[m]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}
