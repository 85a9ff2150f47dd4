import { Component, Model, der } from '../src/model/index.ts';
import { mul, neg, sub, add, residue, relax } from '../src/expr/index.ts';

class Shaft extends Component {
  l; r;
  constructor(name: string, J: number, state = false) {
    super(name);
    const Jp = this.parameter('J', J);
    const w = this.variable('w'), a = this.variable('a'), tl = this.variable('tl'), tr = this.variable('tr');
    this.l = this.connector('l', { across: { w, a }, through: { t: tl } });
    this.r = this.connector('r', { across: { w, a }, through: { t: neg(tr) } });
    if (state) { this.equation(der(w), a); this.equation(mul(Jp, a), add(sub(tl, tr), residue(a))); }
    else this.equation(mul(Jp, relax(a)), sub(tl, tr));
  }
}
class Gear extends Component {
  l; r;
  constructor(name: string, ratio: number) {
    super(name);
    const i = this.parameter('i', ratio);
    const wl = this.variable('wl'), al = this.variable('al'), tl = this.variable('tl');
    const wr = this.variable('wr'), ar = this.variable('ar'), tr = this.variable('tr');
    this.l = this.connector('l', { across: { w: wl, a: al }, through: { t: tl } });
    this.r = this.connector('r', { across: { w: wr, a: ar }, through: { t: neg(tr) } });
    this.equation(wl, mul(i, wr));
    this.equation(al, mul(i, relax(ar)));
    this.equation(mul(i, tl), tr);
  }
}
class Torque extends Component {
  f;
  constructor(name: string, tau: number) {
    super(name);
    const t = this.parameter('tau', tau);
    const w = this.variable('w'), a = this.variable('a');
    this.f = this.connector('flange', { across: { w, a }, through: { t: neg(t) } });
  }
}
export const parameters = { tau: 1 };
export default function build(p: { tau: number }) {
const m = new Model('dt');
const src = m.add(new Torque('src', p.tau));
const s1 = m.add(new Shaft('s1', 1));
const g = m.add(new Gear('g', 3));
const s2 = m.add(new Shaft('s2', 2, true));
m.connect(src.f, s1.l); m.connect(s1.r, g.l); m.connect(g.r, s2.l);
return m;
}
