// tangent.ts on hand-written straight-line code, against derivatives
// worked out by hand: the tangents in two unit directions and in one
// direction given as a symbol, zeros that propagate without assignments,
// and needed() keeping only what the outputs read.
import { describe, expect, it } from 'vitest';
import { type Expr, ONE, type Sym, ZERO, add, div, evaluate, mul, pow, sin } from '../../src/expr/index.ts';
import { Variable } from '../../src/model/index.ts';
import { type Assign, Temp } from '../../src/structure/plan-types.ts';
import { needed, tangents } from '../../src/codegen/tangent.ts';

const a = new Variable(undefined, 'a', 'state'),
  b = new Variable(undefined, 'b', 'state'),
  c = new Variable(undefined, 'c', 'state');
const v1 = new Temp('v1'),
  v2 = new Temp('v2'),
  v3 = new Temp('v3');
// v1 = sin(a) b; v2 = v1^2 + a / b; v3 = 2 c (depends on neither a nor b)
const list: Assign[] = [
  { target: v1, expr: mul(sin(a.e), b.e) },
  { target: v2, expr: add(pow(v1.e, 2), div(a.e, b.e)) },
  { target: v3, expr: mul(2, c.e) },
];
const symbols = new Map<number, Sym>([a, b, c, v1, v2, v3].map((s) => [s.id, s]));

/** the assignments run in order at a = 0.7, b = 1.3, c = 5 (and dir = 0.25), then e evaluated */
function run(assigns: readonly Assign[], e: Expr, extra: Map<number, number> = new Map()): number {
  const values = new Map<number, number>([[a.id, 0.7], [b.id, 1.3], [c.id, 5], ...extra]);
  for (const x of assigns)
    values.set(
      x.target.id,
      evaluate(x.expr, (s) => values.get(s.id)!),
    );
  return evaluate(e, (s) => values.get(s.id)!);
}

describe('tangents of straight-line code', () => {
  const [A, B] = [0.7, 1.3];
  const V1 = Math.sin(A) * B;
  // by hand: dv2/da = 2 v1 cos(a) b + 1/b, dv2/db = 2 v1 sin(a) - a/b^2
  const want = [2 * V1 * Math.cos(A) * B + 1 / B, 2 * V1 * Math.sin(A) - A / (B * B)];
  it('two unit directions: dv2/da and dv2/db; v3 gets no tangent', () => {
    const t = tangents(
      list,
      new Map([
        [a.id, [ONE, ZERO]],
        [b.id, [ZERO, ONE]],
      ]),
      2,
      (id) => symbols.get(id)!,
    );
    const d = t.tangent(v2.id)!;
    expect(run(t.assigns, d[0])).toBeCloseTo(want[0], 14);
    expect(run(t.assigns, d[1])).toBeCloseTo(want[1], 14);
    expect(t.tangent(v3.id)).toBeUndefined();
    expect(t.assigns.some((x) => x.target.name.startsWith('v3'))).toBe(true); // the primal stays
    expect(t.assigns.filter((x) => x.target.name.startsWith("v3'"))).toEqual([]);
  });
  it('one direction given by a symbol: da = dir, db = 0', () => {
    const dir = new Variable(undefined, 'dir', 'input');
    symbols.set(dir.id, dir);
    const t = tangents(list, new Map([[a.id, [dir.e]]]), 1, (id) => symbols.get(id)!);
    expect(run(t.assigns, t.tangent(v2.id)![0], new Map([[dir.id, 0.25]]))).toBeCloseTo(0.25 * want[0], 14);
  });
  it('needed() keeps what the outputs read, in order', () => {
    const t = tangents(list, new Map([[a.id, [ONE]]]), 1, (id) => symbols.get(id)!);
    const kept = needed(t.assigns, [t.tangent(v2.id)![0]]);
    expect(kept.map((x) => x.target.name)).not.toContain('v3');
    expect(kept[0].target).toBe(v1);
    expect(run(kept, t.tangent(v2.id)![0])).toBeCloseTo(want[0], 14);
  });
});
