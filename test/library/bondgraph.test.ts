// Bond-graph library: junctions and elements against an RC closed form; the
// section-4 causality and loop-matrix helpers on small graphs.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { Model } from '../../src/model/index.ts';
import {
  C,
  OneJunction,
  R,
  Se,
  ZeroJunction,
  type BondGraphSketch,
  assignCausality,
  algebraicLoopMatrix,
  selectTearPorts,
} from '../../src/library/bondgraph/index.ts';

describe('bond-graph elements', () => {
  it('Se -> 1 -> (R, C): der(e_C) = (E - e_C) / (R C)', () => {
    const m = new Model('rc');
    const se = m.add(new Se('Se', { E: 4 }));
    const one = m.add(new OneJunction('one', [1, -1, -1]));
    const r = m.add(new R('R', { R: 2 }));
    const c = m.add(new C('C', { C: 0.5, e: 1 }));
    m.connect(se.p, one.ports[0]);
    m.connect(one.ports[1], r.p);
    m.connect(one.ports[2], c.p);
    const k = compile(m);
    const dx = new Float64Array(1);
    k.derivatives(0, k.x0(), dx);
    expect(dx[0]).toBeCloseTo((4 - 1) / (2 * 0.5), 14);
    expect(k.signal('R.f')).toBeCloseTo(1.5, 14);
  });

  it('Se -> 0 -> (R, C) with a ZeroJunction: the R sees the source effort', () => {
    const m = new Model('parallel');
    const se = m.add(new Se('Se', { E: 4 }));
    const rs = m.add(new R('Rs', { R: 1 }));
    const one = m.add(new OneJunction('one', [1, -1, -1]));
    const zero = m.add(new ZeroJunction('zero', 3));
    const r = m.add(new R('R', { R: 2 }));
    const c = m.add(new C('C', { C: 0.5, e: 1 }));
    m.connect(se.p, one.ports[0]);
    m.connect(one.ports[1], rs.p);
    m.connect(one.ports[2], zero.ports[0]);
    m.connect(zero.ports[1], r.p);
    m.connect(zero.ports[2], c.p);
    const k = compile(m);
    const dx = new Float64Array(1);
    k.derivatives(0, k.x0(), dx);
    // f_Rs = (E - e_C) / Rs = 3 flows into the 0-junction; R takes e_C / R = 0.5, C the rest
    expect(dx[0]).toBeCloseTo((3 - 0.5) / 0.5, 14);
  });
});

const sketch = (elements: [string, BondGraphSketch['elements'][number]['kind']][], bonds: [string, string][]): BondGraphSketch => ({
  elements: elements.map(([name, kind]) => ({ name, kind })),
  bonds,
});

describe('causality and algebraic loops (section 4)', () => {
  it('SCAP on fig. 1: R1 and R3 resistive, R2, R4, R5 conductive', () => {
    const g = sketch(
      [
        ['Se', 'Se'],
        ['R1', 'R'],
        ['R2', 'R'],
        ['R3', 'R'],
        ['R4', 'R'],
        ['R5', 'R'],
        ['C', 'C'],
        ['j1', '1'],
        ['z1', '0'],
        ['j2', '1'],
        ['z2', '0'],
        ['j3', '1'],
      ],
      [
        ['Se', 'j1'],
        ['j1', 'R1'],
        ['j1', 'z1'],
        ['z1', 'R2'],
        ['z1', 'j2'],
        ['j2', 'R3'],
        ['j2', 'z2'],
        ['z2', 'R4'],
        ['z2', 'j3'],
        ['j3', 'R5'],
        ['j3', 'C'],
      ],
    );
    const effortFrom = assignCausality(g);
    const name = (k: number) => g.elements[k].name;
    const rBond = (r: string) => g.bonds.findIndex((b) => b.includes(r));
    expect(['R1', 'R2', 'R3', 'R4', 'R5'].map((r) => name(effortFrom[rBond(r)]) === r)).toEqual([true, false, true, false, false]);
  });

  it('two resistors in parallel on an effort source (one 0-junction): no algebraic loop', () => {
    const g = sketch(
      [
        ['Se', 'Se'],
        ['z', '0'],
        ['Ra', 'R'],
        ['Rb', 'R'],
      ],
      [
        ['Se', 'z'],
        ['z', 'Ra'],
        ['z', 'Rb'],
      ],
    );
    const m = algebraicLoopMatrix(g);
    expect(m.entries.flat().some(Boolean)).toBe(false);
    expect(selectTearPorts(m.entries)).toEqual([]);
  });

  it('a voltage divider (Se - 1 - 0 with Ra on the 1 and Rb on the 0): one loop Ra-Rb', () => {
    const g = sketch(
      [
        ['Se', 'Se'],
        ['j', '1'],
        ['z', '0'],
        ['Ra', 'R'],
        ['Rb', 'R'],
      ],
      [
        ['Se', 'j'],
        ['j', 'Ra'],
        ['j', 'z'],
        ['z', 'Rb'],
      ],
    );
    expect(algebraicLoopMatrix(g).entries).toEqual([
      [false, true],
      [true, false],
    ]);
    expect(selectTearPorts(algebraicLoopMatrix(g).entries)).toEqual([0]);
  });

  it('removing rows 1 and 4 of Table 1 leaves (3, 5): port 3 is chosen as well', () => {
    const x = true,
      _ = false;
    const without14 = [
      [_, _, _, _, _],
      [_, _, _, _, _],
      [_, _, _, _, x],
      [_, _, _, _, _],
      [_, _, x, _, _],
    ];
    expect(selectTearPorts(without14)).toEqual([2]);
  });

  it('reports a causal conflict: two effort sources on one 0-junction', () => {
    const g = sketch(
      [
        ['S1', 'Se'],
        ['S2', 'Se'],
        ['z', '0'],
      ],
      [
        ['S1', 'z'],
        ['S2', 'z'],
      ],
    );
    expect(() => assignCausality(g)).toThrow(/causal conflict/);
  });
});
