// Flattening: hierarchical names, connection equations, alias elimination.
import { describe, expect, it } from 'vitest';
import { add, neg, residue, show } from '../../src/expr/index.ts';
import { Component, type Connector, Model, der, describeEquation, eliminateAliases, flatten } from '../../src/model/index.ts';
import { ModelError } from '../../src/errors.ts';

class Pin extends Component {
  p: Connector;
  constructor(name: string) {
    super(name);
    const v = this.variable('v'),
      i = this.variable('i');
    this.p = this.connector('p', { across: { v }, through: { i } });
  }
}

class Pair extends Component {
  a: Pin;
  b: Pin;
  constructor(name: string) {
    super(name);
    this.a = this.add(new Pin('a'));
    this.b = this.add(new Pin('b'));
  }
}

describe('flattening', () => {
  it('names variables hierarchically and keeps der() names readable', () => {
    const m = new Model('m');
    const pair = m.add(new Pair('pair'));
    const x = pair.variable('x');
    pair.equation(der(x), 1);
    const names = flatten(m).variables.map((v) => v.name);
    expect(names).toEqual(['pair.x', 'der(pair.x)', 'pair.a.v', 'pair.a.i', 'pair.b.v', 'pair.b.i']);
  });
  it('a connection set of three gives two across equations and one through sum; unconnected through is zero', () => {
    const m = new Model('m');
    const [p, q, r] = ['p', 'q', 'r', 's'].map((n) => m.add(new Pin(n)));
    m.connect(p.p, q.p);
    m.connect(q.p, r.p);
    const eqs = flatten(m).equations.map(describeEquation);
    expect(eqs).toEqual([
      'connect(p.p, q.p, r.p): p.v = q.v',
      'connect(p.p, q.p, r.p): p.v = r.v',
      'connect(p.p, q.p, r.p): p.i + q.i + r.i = 0',
      's.p (unconnected): s.i = 0',
    ]);
  });
  it('refuses to connect connectors of different types, naming both', () => {
    const m = new Model('m');
    const p = m.add(new Pin('p'));
    const c = m.add(new Component('c'));
    const f = c.connector('flange', { across: { w: c.variable('w') }, through: { t: c.variable('t') } });
    m.connect(p.p, f);
    expect(() => flatten(m)).toThrow(/cannot connect p.p to c.flange/);
  });
  it('rejects duplicate component names and unknown parameter overrides', () => {
    const m = new Model('m');
    m.add(new Pin('p'));
    expect(() => m.add(new Pin('p'))).toThrow(ModelError);
    const c = m.add(new Component('c'));
    c.parameter('k', 2);
    expect(() => flatten(m, { parameters: { 'c.kk': 1 } })).toThrow(/no parameter named c.kk/);
    expect(show(flatten(m, { parameters: { 'c.k': 5 } }).variables.find((v) => v.name === 'c.k')!.e)).toBe('c.k');
  });
});

describe('alias elimination', () => {
  it('removes x = y, x = -y and x = c, keeping states and derivatives as representatives', () => {
    const m = new Model('m');
    const s = m.variable('s', { start: 2 });
    const a = m.variable('a'),
      b = m.variable('b', { start: 5 }),
      c = m.variable('c'),
      d = m.variable('d');
    m.equation(der(s), a); // a -> der(s)
    m.equation(b, neg(c)); // c -> -b (c declared later)
    m.equation(d, 3); // d -> 3
    m.equation(a, add(b, d, s));
    const r = eliminateAliases(flatten(m));
    expect(r.equations.map((e) => show(e.residual))).toEqual(['der(s) - (3 + s + b)']);
    expect(r.aliases.get(c.sym!.id)).toMatchObject({ sign: -1, offset: 0 });
    expect(r.aliases.get(c.sym!.id)!.of!.name).toBe('b');
    expect(r.aliases.get(d.sym!.id)).toMatchObject({ of: undefined, offset: 3 });
    expect(r.aliases.get(a.sym!.id)!.of!.name).toBe('der(s)');
  });
  it('never eliminates an equation that carries a tearing hint', () => {
    const m = new Model('m');
    const x = m.variable('x'),
      y = m.variable('y');
    m.equation(add(x, residue(x)), y);
    m.equation(y, 1);
    const r = eliminateAliases(flatten(m));
    expect(r.equations).toHaveLength(1);
    expect(r.equations[0].residues).toHaveLength(1);
  });
});
