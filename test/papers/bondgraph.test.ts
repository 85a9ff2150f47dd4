// Bond graph tearing paper, sections 2-4: the RC ladder of fig. 1 without
// sinks, with residual flow sinks (fig. 2, eq. 9) and with residual effort
// sinks (fig. 3); der(C.e) against a dense solve of eq. 6; the section-4
// heuristic on the algebraic loop matrix of Table 1.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import build, { parameters } from '../../mechanisms/bondgraph.ts';
import { type BondGraphSketch, algebraicLoopMatrix, selectTearPorts, tearPorts } from '../../src/library/bondgraph/index.ts';
import { bondGraphEq6 } from '../oracles/closed-forms.ts';

const other = { E: -3, R1: 0.7, R2: 12, R3: 0.05, R4: 3.3, R5: 1e3, C: 2e-3, eC0: 4 };

describe('bond graph with algebraic loops (fig. 1-3)', () => {
  it('plain (fig. 1): one linear loop, torn by the fallback heuristic to at most 3 variables', () => {
    const blocks = compile(build({ variant: 0 })).report.blocks;
    expect(blocks.length).toBe(1);
    expect(blocks[0].tearingFrom).toBe('heuristic');
    expect(blocks[0].linear).toBe(true);
    expect(blocks[0].tearing).toBeLessThanOrEqual(3);
  });

  it('residual flow sinks (fig. 2): one loop torn to f1, f3, f5 (eq. 9)', () => {
    const blocks = compile(build({ variant: 1 })).report.blocks;
    expect(blocks.map((b) => ({ tearing: b.tearing, from: b.tearingFrom, linear: b.linear }))).toEqual([{ tearing: 3, from: 'hints', linear: true }]);
    expect(blocks[0].residueEquations.map((e) => e.split(':')[0])).toEqual(['Sf1', 'Sf2', 'Sf3']);
  });

  it('residual effort sinks (fig. 3): one loop torn to e2, e4', () => {
    const c = compile(build({ variant: 2 }));
    const blocks = c.report.blocks;
    expect(blocks.map((b) => ({ tearing: b.tearing, from: b.tearingFrom, linear: b.linear }))).toEqual([{ tearing: 2, from: 'hints', linear: true }]);
    // reported by the names the residue hints use (the sinks' efforts), which are e2 and e4
    const same = (name: string) => [...c.reduced.aliases.values()].find((a) => a.variable.name === name)?.of?.name;
    expect(blocks[0].tearVariables.sort()).toEqual(['ResSe1.e', 'ResSe2.e']);
    expect([same('R2.e'), same('R4.e')].sort()).toEqual(['ResSe1.e', 'ResSe2.e']);
  });

  it.each([0, 1, 2])('variant %i: der(C.e) and e1..e5 agree with a dense solve of eq. 6', (variant) => {
    for (const p of [parameters, other]) {
      const c = compile(build({ ...p, variant }));
      expect(c.stateNames).toEqual(['C.e']);
      for (const eC of [p.eC0, -1.25]) {
        const dx = new Float64Array(1);
        c.derivatives(0, Float64Array.of(eC), dx);
        const want = bondGraphEq6(p, eC);
        expect(Math.abs(dx[0] - want.deC)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(want.deC)));
        want.e.forEach((ek, k) => expect(Math.abs(c.signal(`R${k + 1}.e`) - ek)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(ek))));
      }
    }
  });
});

/** fig. 1 as a sketch: Se - 1 - 0 - 1 - 0 - 1 - C, R1/R3/R5 on the 1-junctions, R2/R4 on the 0-junctions */
const FIG1: BondGraphSketch = {
  elements: [
    { name: 'Se', kind: 'Se' },
    { name: 'R1', kind: 'R' },
    { name: 'R2', kind: 'R' },
    { name: 'R3', kind: 'R' },
    { name: 'R4', kind: 'R' },
    { name: 'R5', kind: 'R' },
    { name: 'C', kind: 'C' },
    { name: 'one1', kind: '1' },
    { name: 'zero1', kind: '0' },
    { name: 'one2', kind: '1' },
    { name: 'zero2', kind: '0' },
    { name: 'one3', kind: '1' },
  ],
  bonds: [
    ['Se', 'one1'],
    ['one1', 'R1'],
    ['one1', 'zero1'],
    ['zero1', 'R2'],
    ['zero1', 'one2'],
    ['one2', 'R3'],
    ['one2', 'zero2'],
    ['zero2', 'R4'],
    ['zero2', 'one3'],
    ['one3', 'R5'],
    ['one3', 'C'],
  ],
};

// Table 1 of the paper, ports 1..5 = R1..R5
const x = true,
  _ = false;
const TABLE1 = [
  [_, x, _, x, x],
  [x, _, _, _, _],
  [_, _, _, x, x],
  [x, _, x, _, _],
  [x, _, x, _, _],
];

describe('section 4 heuristic', () => {
  it('derives the algebraic loop matrix of Table 1 from the bond graph of fig. 1', () => {
    const m = algebraicLoopMatrix(FIG1);
    expect(m.ports).toEqual(['R1', 'R2', 'R3', 'R4', 'R5']);
    expect(m.entries).toEqual(TABLE1);
  });

  it('removes row/column 1, then 3: residual sinks at R1 and R3', () => {
    expect(selectTearPorts(TABLE1)).toEqual([0, 2]);
    expect(tearPorts(FIG1)).toEqual(['R1', 'R3']);
  });
});
