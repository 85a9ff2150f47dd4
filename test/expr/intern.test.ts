// The intern tables (src/expr/node.ts): hash-consing holds for every node a
// compile sees, ids stay unique, and what one compile derives (its own
// nodes, its derivatives) is never handed to another. That memory is
// returned is measured in test/compile/memory.test.ts.
import { describe, expect, it } from 'vitest';
import { type Expr, ExprError, add, cos, diff, mul, num, sin, symsOf, tableSnapshot, withLocalTable } from '../../src/expr/index.ts';
import { Model } from '../../src/model/index.ts';

const m = new Model('t');
const x = m.variable('x'),
  y = m.variable('y');
const X = m.variables[0];

describe('withLocalTable: the intern table of one compile', () => {
  it('finds the nodes made before it, and its own', () => {
    const before = mul(sin(x), y);
    withLocalTable(() => {
      expect(mul(y, sin(x))).toBe(before);
      const mine = add(cos(x), 7.25);
      expect(add(7.25, cos(x))).toBe(mine);
      expect(withLocalTable(() => add(cos(x), 7.25))).toBe(mine); // nested: the outer table serves
    });
  });

  it('gives every node a new id: none is reused across tables', () => {
    const ids: number[] = [];
    const collect = (e: Expr) => ids.push(e.id);
    collect(add(x, 3.5));
    withLocalTable(() => collect(add(x, 4.5)));
    withLocalTable(() => collect(add(x, 4.5)));
    collect(add(x, 4.5));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a derivative taken in one compile is not handed to the next: the next derives its own', () => {
    const e = mul(sin(x), x); // a model's node, alive across compiles
    const first = withLocalTable(() => diff(e, X));
    withLocalTable(() => {
      const own = add(mul(cos(x), x), sin(x)); // d/dx (x sin x), built here
      expect(diff(e, X)).toBe(own);
      expect(diff(e, X)).not.toBe(first);
    });
    expect(diff(e, X)).toBe(add(mul(cos(x), x), sin(x)));
  });

  it("started from a snapshot (mode auto's second form): the nodes made before it, not those made after", () => {
    let early: Expr | undefined, late: Expr | undefined;
    const snapshot = withLocalTable(() => {
      early = add(sin(x), 11.5);
      const s = tableSnapshot();
      late = add(sin(x), 12.5);
      return s;
    });
    const again = withLocalTable(() => {
      expect(add(11.5, sin(x))).toBe(early);
      const made = add(sin(x), 12.5);
      expect(made).not.toBe(late); // made anew, with an id of its own
      expect(made.id).toBeGreaterThan(late!.id);
      return made;
    }, snapshot);
    // each start copies the snapshot: what one compile added is not in the next
    withLocalTable(() => {
      expect(add(11.5, sin(x))).toBe(early);
      expect(add(sin(x), 12.5)).not.toBe(again);
    }, snapshot);
    expect(() => tableSnapshot()).toThrow(ExprError);
  });

  it('ends with its function, also when that throws', () => {
    expect(() =>
      withLocalTable(() => {
        add(x, 9.5);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    const outside = add(x, 9.5);
    expect(add(9.5, x)).toBe(outside);
    expect(withLocalTable(() => add(x, 9.5))).toBe(outside);
    expect([...symsOf(outside)]).toEqual([X.id]);
    expect(num(9.5)).toBe(outside.args[0]);
  });

  it("outside a compile, a symbol's nodes are one whether it anchors one, a few or many (its list, then its table)", () => {
    const owner = new Model('anchors');
    const z = owner.variable('z');
    // each node's youngest symbol is z: 1, 2, ... 20 of them anchored there, each asked for again after every new one
    const made: Expr[] = [];
    for (let k = 0; k < 20; k++) {
      made.push(add(mul(k + 0.5, z), x));
      made.forEach((e, j) => expect(add(x, mul(z, j + 0.5))).toBe(e));
    }
    expect(new Set(made.map((e) => e.id)).size).toBe(20);
    withLocalTable(() => made.forEach((e, j) => expect(add(mul(j + 0.5, z), x)).toBe(e)));
  });
});
