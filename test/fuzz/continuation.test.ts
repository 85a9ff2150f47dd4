// The oracle's continuation on an assembly branch (test/oracles/loop-assembly.ts
// continueLoop), which the fuzzer's no-assembly verdict rests on
// (bench/fuzz/check.ts): a planar four-bar whose crank cannot turn over
// (a + d > b + c: the coupler and rocker stretch out at cos(theta) = 1/6)
// followed from its assembled start against the closed form of its
// position (two circles' intersection, on the start's side of B-D): it
// reaches a crank angle before the limit on the same branch, and stops at
// the limit for one beyond it, where a direct Newton solve may still "close"
// the loop far away or not at all.
import { describe, expect, it } from 'vitest';
import type { LoopSystem } from '../oracles/loops.ts';
import { constraints } from '../oracles/loops.ts';
import { continueLoop } from '../oracles/loop-assembly.ts';
import { expand } from '../oracles/joint-tree.ts';
import { type V3, identity } from '../oracles/rnea.ts';

const [a, b, c, d] = [0.2, 0.3, 0.3, 0.6];
const z: V3 = [0, 0, 1];
const body = { m: 1, c: [0.1, 0, 0] as V3, I: [0.01, 0.01, 0.01, 0, 0, 0] as [number, number, number, number, number, number] };
const free = { c: 0, q0: 0, d: 0 };
const link = (parent: number, o: V3) => ({ parent, E: identity(), o, joint: 'revolute' as const, axes: [z], body, law: free });
// crank j1 at A = 0, coupler j2 at B, rocker j3 at D = (d, 0); the planar cut joins the coupler's end to the rocker's
const SYS: LoopSystem = {
  tree: { gravity: [0, -9.81, 0], links: [link(-1, [0, 0, 0]), link(0, [a, 0, 0]), link(-1, [d, 0, 0])] },
  cuts: [{ type: 'planar', a: { link: 1, E: identity(), o: [b, 0, 0] }, b: { link: 2, E: identity(), o: [c, 0, 0] }, axes: [z] }],
};
const REST = [1, 2];

/** [theta2, coupler angle relative to the crank, rocker angle] with the coupler-rocker joint C on the left of B -> D */
function closedForm(theta: number): number[] {
  const B = [a * Math.cos(theta), a * Math.sin(theta)];
  const u = [d - B[0], -B[1]],
    L = Math.hypot(u[0], u[1]);
  const along = (b * b - c * c + L * L) / (2 * L),
    across = Math.sqrt(b * b - along * along);
  const C = [B[0] + (along * u[0] - across * u[1]) / L, B[1] + (along * u[1] + across * u[0]) / L];
  return [theta, Math.atan2(C[1] - B[1], C[0] - B[0]) - theta, Math.atan2(C[1], C[0] - d)];
}

const LIMIT = Math.acos(1 / 6);

describe('continuation along the assembly branch (loop-assembly.ts continueLoop)', () => {
  it('the start is closed and the closed form is right', () => {
    for (const theta of [0.5, 1, 1.4]) expect(Math.max(...constraints(SYS, expand(SYS.tree), closedForm(theta)).map(Math.abs))).toBeLessThan(1e-15);
  });

  it('reaches crank angles before the limit on the start branch', () => {
    for (const theta of [0.9, 1.2, 1.4, -0.6]) {
      const r = continueLoop(SYS, closedForm(0.5), [theta, 0, 0], REST);
      expect(r.closed).toBe(true);
      const want = closedForm(theta);
      if (r.closed) for (const i of REST) expect(Math.abs(r.q[i] - want[i]), `theta ${theta}, q[${i}]`).toBeLessThan(1e-9);
    }
  });

  it('stops at the limit cos(theta) = 1/6 for a crank angle beyond it, and says how far it got', () => {
    const r = continueLoop(SYS, closedForm(0.5), [2, 0, 0], REST);
    expect(r.closed).toBe(false);
    if (!r.closed) {
      const reached = 0.5 + 1.5 * r.reached;
      expect(reached).toBeLessThan(LIMIT);
      expect(reached).toBeGreaterThan(LIMIT - 1e-3);
      // the rest coordinates' Jacobian is near singular there: the fold
      expect(r.rank).toBeLessThan(0.05);
    }
  });
});
