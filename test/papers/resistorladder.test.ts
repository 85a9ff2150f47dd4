// Tearing paper, "Electrical circuits": the resistor ladder
//   Common - U0 - R1 - (R2 // (R3 - (R4 // (R5 - R6)))) - Common
// with (a) no hints, (b) three MeshCuts, (c) NodeCuts at u2, u4, u6,
// (d) one TearCut; currents checked against an independent nodal analysis.
// Op counts (resistorladder-counts.ts) beside the paper's: checked here, and
// written to docs/papers-opcounts.md by `npm run docs:opcounts`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { luOps } from '../../src/codegen/ops.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import build, { parameters, VARIANTS } from '../../mechanisms/resistorladder.ts';
import { nodalAnalysis } from '../oracles/nodal.ts';
import { type LadderCounts, evaluationOps, ladderCounts, opCountsMarkdown } from './resistorladder-counts.ts';

type Params = Omit<typeof parameters, 'variant'>;

// (parameters) => currents through R1..R6 from p to n, by nodal analysis
function oracleCurrents(p: Params): number[] {
  const net = [
    { name: 'R1', p: 'n1', n: 'u2', R: p.R1 },
    { name: 'R2', p: 'u2', n: 'gnd', R: p.R2 },
    { name: 'R3', p: 'u2', n: 'u4', R: p.R3 },
    { name: 'R4', p: 'u4', n: 'gnd', R: p.R4 },
    { name: 'R5', p: 'u4', n: 'u6', R: p.R5 },
    { name: 'R6', p: 'u6', n: 'gnd', R: p.R6 },
  ];
  const { i } = nodalAnalysis(net, { n1: p.U0, gnd: 0 });
  return net.map((r) => i.get(r.name)!);
}

const { variant: _, ...defaults } = parameters;
const other: Params = { U0: 3.3, R1: 47, R2: 10, R3: 220, R4: 1e3, R5: 0.5, R6: 68 };

const results: (CompiledModel | Error)[] = [0, 1, 2, 3].map((variant) => {
  try {
    return compile(build({ variant }), { mode: 'torn' });
  } catch (e) {
    return e as Error;
  }
});

function compiled(variant: number): CompiledModel {
  const r = results[variant];
  if (r instanceof Error) throw r;
  return r;
}

/** mul+div of one evaluation: with no states, the currents are computed in the outputs pass (report.ops is zero) */
const mulDiv = (c: CompiledModel) => {
  const ops = evaluationOps(c);
  return ops.mul + ops.div;
};
const counts: LadderCounts[] = VARIANTS.map((_, v) => ladderCounts(v));

describe('resistor ladder (tearing paper, electrical circuits)', () => {
  it.each([0, 1, 2, 3])('variant %i gives the currents of the nodal analysis', (variant) => {
    for (const p of [defaults, other]) {
      const c = variant === 0 && p === defaults ? compiled(0) : compile(build({ ...p, variant }), { mode: 'torn' });
      c.derivatives(0, c.x0(), new Float64Array(c.stateNames.length));
      const want = oracleCurrents(p);
      want.forEach((w, k) => {
        const got = c.signal(`R${k + 1}.i`);
        expect(Math.abs(got - w)).toBeLessThanOrEqual(1e-10 * Math.abs(w));
      });
    }
  });

  it('(a) without hints is one loop, torn by the fallback heuristic', () => {
    const [block, ...rest] = compiled(0).report.blocks;
    expect(rest).toEqual([]);
    expect(block.tearingFrom).toBe('heuristic');
    expect(block.linear).toBe(true);
  });

  it.each([
    [1, 3],
    [2, 3],
    [3, 1],
  ])('variant %i tears the loop to %i variables from the library hints', (variant, tearing) => {
    const blocks = compiled(variant).report.blocks;
    expect(blocks.map((b) => ({ tearing: b.tearing, from: b.tearingFrom, linear: b.linear }))).toEqual([{ tearing, from: 'hints', linear: true }]);
  });

  it.each([1, 2, 3])('variant %i needs fewer mul+div than solving the untorn loop by dense LU', (variant) => {
    const n = compiled(0).report.blocks[0].size;
    const lu = luOps(n);
    expect(compiled(0).report.ops).toEqual({ mul: 0, add: 0, div: 0, fn: 0 }); // no states: all of it is outputs
    expect(mulDiv(compiled(variant))).toBeGreaterThan(0);
    expect(mulDiv(compiled(variant))).toBeLessThan(lu.mul + lu.div);
  });

  it.each([0, 1, 2, 3])("variant %i with symbolic resistances costs no more than the paper's Dymola code", (variant) => {
    const { paper, symbolic } = counts[variant];
    expect(symbolic.mult).toBeGreaterThan(0);
    expect(symbolic.mult).toBeLessThanOrEqual(paper.mult);
    expect(symbolic.add).toBeLessThanOrEqual(paper.add);
  });

  it('docs/papers-opcounts.md is what `npm run docs:opcounts` writes today', () => {
    const file = readFileSync(new URL('../../docs/papers-opcounts.md', import.meta.url), 'utf8');
    expect(file, 'run npm run docs:opcounts').toBe(opCountsMarkdown());
  });

  it('the table of docs/theory/papers.md gives the counts the compiler prints today', () => {
    const readme = readFileSync(new URL('../../docs/theory/papers.md', import.meta.url), 'utf8').split('\n');
    for (const c of counts) {
      const row = readme.find((l) => l.trim().startsWith(`| ${c.variant} |`));
      expect(row, `README row for ${c.variant}`).toBeDefined();
      const pairs = [...row!.matchAll(/(\d+) \/ (\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
      expect(pairs, row).toEqual([
        [c.paper.mult, c.paper.add],
        [c.symbolic.mult, c.symbolic.add],
        [c.folded.mult, c.folded.add],
      ]);
    }
  });
});
