// Pieces derived from a prototype instead of lowered (codegen/template-derive.ts).
// The oracle is the emitter itself: with verify on, every derived piece is
// lowered too and both are printed; a difference throws. Seeded random pieces
// and copies of them (other symbols, other numbers of the same kind) are
// derived and must print as lowered; copies that differ where lowering looks
// (a number's kind, two symbols made one, a read before its assignment) are
// not derived. The workspace layout and the operation counts are the flat
// path's. On whole models, generate() with templates: 'verify'.
import { describe, expect, it } from 'vitest';
import chain from '../../mechanisms/chain.ts';
import rcgrid from '../../mechanisms/rcgrid.ts';
import { Module, generate } from '../../src/codegen/generate.ts';
import { Deriving } from '../../src/codegen/template-derive.ts';
import { Templating } from '../../src/codegen/templates.ts';
import { Slots, readCounts } from '../../src/codegen/slots.ts';
import { IdTable } from '../../src/codegen/id-table.ts';
import { type Assign, type SolvePlan, Temp } from '../../src/structure/plan-types.ts';
import { Variable } from '../../src/model/variable.ts';
import { type Expr, type Sym, add, cos, div, ex, mul, pow, sin, sub, symbol } from '../../src/expr/index.ts';
import { compile } from '../../src/index.ts';
import { prng, randomTree } from '../multibody/random-tree.ts';

const POOL = [0.3, 0.7, 2.5, -1.5, 1, -1];
/** the pool with each number other than ±1 moved to another of its kind (sign, no exponent) */
const OTHER = [0.35, 0.75, 2.25, -1.75, 1, -1];

/** `count` assignments drawn by `seed` over `reads` and the earlier targets, numbers from `pool` */
function piece(seed: number, reads: readonly Sym[], targets: readonly (Temp | Variable)[], pool: readonly number[]): Assign[] {
  const rnd = prng(seed);
  const avail: Expr[] = reads.map((s) => symbol(s));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const tree = (d: number): Expr => {
    if (d === 0 || rnd() < 0.2) return rnd() < 0.25 ? ex(pick(pool)) : pick(avail);
    const r = rnd();
    const a = tree(d - 1);
    if (r < 0.1) return sin(a);
    if (r < 0.15) return cos(a);
    if (r < 0.2) return pow(a, rnd() < 0.5 ? 2 : 10);
    const b = tree(d - 1);
    if (r < 0.45) return add(a, b);
    if (r < 0.75) return mul(a, b, pick(pool));
    if (r < 0.85) return sub(a, b);
    return div(a, add(4, mul(b, b)));
  };
  return targets.map((target) => {
    const expr = tree(3);
    avail.push(target.e);
    return { target, expr };
  });
}

const variables = (tag: string, n: number) => Array.from({ length: n }, (_, i) => new Variable(undefined, `${tag}${i}`, 'algebraic'));
/** targets alternating Temp and Variable by position (both pieces alike) */
const targetsOf = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => (i % 3 === 0 ? new Variable(undefined, `${tag}v${i}`, 'algebraic') : new Temp(`${tag}t${i}`)));

/**
 * Both lists through one module (the second derived from the first where it
 * can be), and through one without deriving: the second module is the flat
 * path. Returns whether the second list was derived, with the two modules'
 * workspaces and operation counts.
 */
function run(lists: Assign[][], reads: readonly Sym[]) {
  // a reader outside the pieces of every other target: some temporaries are stored, some not
  const outside = lists.flatMap((l) => l.filter((_, k) => k % 2 === 1).map((a) => a.target.e));
  const exprs = [...lists.flatMap((l) => l.map((a) => a.expr)), ...outside];
  const make = (derive: boolean) => {
    const plan = { states: [], inputs: [], parameters: [], unknowns: reads } as unknown as SolvePlan;
    const slots = new Slots(plan);
    const counts = readCounts(exprs, new IdTable());
    const templating = new Templating(false);
    const mod = new Module(slots, 800, counts, undefined, templating, false, exprs.length);
    if (derive) {
      mod.deriving = new Deriving(slots, counts, templating);
      mod.verifyDerived = true;
    }
    for (const l of lists) mod.assigns(l);
    return { mod, slots };
  };
  const a = make(true),
    b = make(false);
  return { derived: a.mod.deriving!.made().derived, made: a.mod.deriving!.made(), a, b };
}

describe('pieces derived from a prototype print as the emitter lowers them', () => {
  it('seeded random pieces and their copies with other symbols and numbers: derived, the same text, slots and counts', () => {
    // the numbers' nodes made before any symbol's: a sum's or product's arguments are ordered by node (expr/build.ts),
    // so the copies' are in their prototypes' order
    for (const v of [...POOL, ...OTHER, 4]) ex(v);
    let derived = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const r1 = variables(`a${seed}.`, 6),
        r2 = variables(`b${seed}.`, 6);
      const k = 4 + (seed % 9);
      const p1 = piece(seed, r1, targetsOf(`a${seed}.`, k), POOL);
      const p2 = piece(seed, r2, targetsOf(`b${seed}.`, k), OTHER);
      const { derived: d, a, b } = run([p1, p2], [...r1, ...r2]); // verify: a derived piece that prints otherwise throws
      derived += d;
      expect(a.slots.names).toEqual(b.slots.names);
      expect(a.mod.ops).toEqual(b.mod.ops);
    }
    // 53 of 60: products of the pool's numbers fold to numbers that meet another (0.7 * 1 and 0.7), so some copies do not match
    expect(derived).toBeGreaterThan(40);
  });

  it('copies that differ where lowering looks are lowered, and say why', () => {
    const cases: [string, (seed: number) => { p1: Assign[]; p2: Assign[]; reads: Sym[] }][] = [
      [
        'a number 1 where the prototype has another',
        (seed) => {
          const r1 = variables('c.', 6),
            r2 = variables('d.', 6);
          return { p1: piece(seed, r1, targetsOf('c.', 6), POOL), p2: piece(seed, r2, targetsOf('d.', 6), [1, 1, 1, 1, 1, -1]), reads: [...r1, ...r2] };
        },
      ],
      [
        'a number written with an exponent',
        (seed) => {
          const r1 = variables('e.', 6),
            r2 = variables('f.', 6);
          return {
            p1: piece(seed, r1, targetsOf('e.', 6), POOL),
            p2: piece(seed, r2, targetsOf('f.', 6), [3e-7, 7e-7, 2.5e-9, -1.5e-7, 1, -1]),
            reads: [...r1, ...r2],
          };
        },
      ],
      [
        'two symbols made one',
        (seed) => {
          const r1 = variables('g.', 6),
            r2 = variables('h.', 6);
          const same = [r2[0], r2[0], r2[0], r2[0], r2[0], r2[0]];
          return { p1: piece(seed, r1, targetsOf('g.', 6), POOL), p2: piece(seed, same, targetsOf('h.', 6), POOL), reads: [...r1, ...r2] };
        },
      ],
    ];
    for (const [what, make] of cases) {
      let lowered = 0;
      for (let seed = 100; seed < 120; seed++) {
        const { p1, p2, reads } = make(seed);
        const { made, a, b } = run([p1, p2], reads);
        expect(made.derived, what).toBe(0);
        lowered += made.unmatched?.count ?? 0;
        expect(a.slots.names).toEqual(b.slots.names);
      }
      expect(lowered, what).toBeGreaterThan(0);
    }
  });

  it('a read of a target before its assignment is lowered', () => {
    const r1 = variables('i.', 2),
      r2 = variables('j.', 2);
    const t1 = [new Temp('i.t0'), new Temp('i.t1')],
      t2 = [new Temp('j.t0'), new Temp('j.t1')];
    const before = (r: Variable[], t: Temp[]): Assign[] => [
      { target: t[0], expr: add(mul(2.5, r[0].e, r[1].e), sin(r[0].e), t[1].e) },
      { target: t[1], expr: mul(0.3, r[1].e, cos(r[0].e)) },
    ];
    const { made } = run([before(r1, t1), before(r2, t2)], [...r1, ...r2, ...t1, ...t2]);
    expect(made.derived).toBe(0);
    expect(made.unmatched?.examples[0]).toMatch(/before the piece assigns it/);
  });
});

describe("generate() with templates: 'verify': every derived piece of a model is the emitter's", () => {
  const verified = (model: Parameters<typeof compile>[0], options: Parameters<typeof compile>[1]) => {
    const plan = compile(model, { ...options, templates: false }).plan;
    const g = generate(plan, { templates: 'verify', ir: false });
    return g.templates!;
  };
  it.each([
    ['relaxed chain n = 24', () => chain({ n: 24 }), { mode: 'relaxed' as const }],
    ['torn chain n = 48', () => chain({ n: 48 }), { mode: 'torn' as const }],
    ['RC grid n = 32, the relaxing iteration', () => rcgrid({ n: 32 }), { relaxIterate: true }],
  ])('%s', (_, build, options) => {
    const made = verified(build(), options);
    expect(made.derived).toBeGreaterThan(0);
  });

  it.each([3, 7, 11])('random tree of 16 bodies (every link its own numbers), seed %i, both forms', (seed) => {
    for (const mode of ['relaxed', 'torn'] as const) verified(randomTree(seed, 16).mechanism, { mode });
  });
});
