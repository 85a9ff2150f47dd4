// The run-time test of a relaxed loop's pivot (plan-types.ts, Checked),
// which the generated code of a checked loop calls for each of its pivots.
import { PIVOT_EPS } from '../../structure/plan-types.ts';
import type { Workspace } from './types.ts';

// A relaxed pivot p checked against the largest |pivot| of its loop so far,
// kept in w[s] (plan-types.ts, Checked): false when p cannot be trusted
// (zero, NaN, or below PIVOT_EPS of that scale).
// The load and the comparison with the scale run every time: reached only when
// the scale stops growing (the PUMA falling from rest grows it for thousands of
// evaluations) they would have no type feedback, and V8 would throw away the
// optimised code of the function pivotOk is inlined into. The store has its
// feedback from the first evaluation, where the scale starts at 0.
export function pivotOk(p: number, w: Workspace, s: number): boolean {
  const m = Math.abs(p),
    largest = w[s],
    above = m > PIVOT_EPS * largest;
  if (m > largest) {
    w[s] = m;
    return true;
  }
  return above;
}
