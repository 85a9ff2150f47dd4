// An input becomes an unknown exactly when an equation of the model defines it
// (src/structure/defined-inputs.ts); otherwise it stays an input.
import { describe, expect, it } from 'vitest';
import { Mechanism, Model, compile, control, der, mul, rotational, simulate, sub, SimulationError } from '../../src/api.ts';
import { bipartiteFromLists } from '../../src/structure/graph.ts';
import { growMatching, maximumMatching } from '../../src/structure/matching.ts';

const kp = 30,
  kd = 2.5;

/** the pendulum of the README, hanging at q = 0.3, with no drive or with tau = law(j1) written by the model */
function pendulum(law?: 'equation' | 'pd'): Mechanism {
  const m = new Mechanism('pendulum');
  const j1 = m.revolute('j1', { axis: [0, 0, 1], q: 0.3 });
  const rod = m.body('rod', { m: 1, rcm: [0.5, 0, 0], I: [0, 0.01, 0.01] });
  m.connect(m.world.frame_b, j1.frame_a);
  m.connect(j1.frame_b, rod.frame_a);
  // the brief's own line: j1.tau = -kp (j1.q - qref) - kd j1.qd, with qref = 1
  if (law === 'equation') m.equation(j1.tau, sub(mul(-kp, sub(j1.q, 1)), mul(kd, j1.qd)));
  if (law === 'pd') m.add(new control.PD('pd', j1, { kp, kd, ref: 1 }));
  return m;
}

describe('inputs defined by equations', () => {
  it('without an equation j1.tau stays an input; with one it is an unknown, torn and relaxed', () => {
    const plain = compile(pendulum());
    expect(plain.generated.layout.inputs).toEqual(['j1.tau']);
    expect(plain.report.definedInputs).toBeUndefined();
    for (const mode of ['torn', 'relaxed'] as const) {
      const c = compile(pendulum('equation'), { mode });
      expect(c.generated.layout.inputs).toEqual([]);
      expect(c.report.definedInputs).toEqual(['j1.tau']);
      expect(c.plan.unknowns.map((v) => v.name)).toContain('j1.tau');
      expect(c.report.unknowns).toBe(compile(pendulum(), { mode }).report.unknowns + 1);
      expect(() => c.setInput('j1.tau', 1)).toThrow(SimulationError);
      expect(() => c.setInput('j1.tau', 1)).toThrow(/no input named j1.tau/);
    }
  });

  it('the equation written in the model module and the PD component give the same run, and tau is the law (1e-12)', () => {
    const a = simulate(compile(pendulum('equation')), { stop: 1, step: 1e-3, interval: 0.1, signals: ['j1.q', 'j1.qd', 'j1.tau'] });
    const b = simulate(compile(pendulum('pd')), { stop: 1, step: 1e-3, interval: 0.1, signals: ['j1.q', 'j1.qd', 'j1.tau'] });
    for (const s of ['j1.q', 'j1.qd', 'j1.tau'] as const) a.get(s).forEach((v, k) => expect(Math.abs(b.get(s)[k] - v)).toBeLessThan(1e-12));
    a.get('j1.tau').forEach((tau, k) => expect(tau).toBeCloseTo(-kp * (a.get('j1.q')[k] - 1) - kd * a.get('j1.qd')[k], 12));
  });

  it("a PD on a prismatic joint sets its force: m x'' = kp (x_r - x) - kd x' on a horizontal slide, closed form to 1e-8", () => {
    const mass = 2,
      xr = 0.25,
      x0 = -0.1;
    const m = new Mechanism('slide');
    const s = m.prismatic('s', { axis: [1, 0, 0], q: x0 });
    const cart = m.body('cart', { m: mass, rcm: [0, 0, 0], I: [0.01, 0.01, 0.01] });
    m.connect(m.world.frame_b, s.frame_a);
    m.connect(s.frame_b, cart.frame_a);
    m.add(new control.PD('pd', s, { kp, kd, ref: xr }));
    const res = simulate(compile(m, { mode: 'relaxed' }), { stop: 2, step: 1e-3, interval: 0.1, signals: ['s.q'] });
    const wn = Math.sqrt(kp / mass),
      zeta = kd / (2 * Math.sqrt(kp * mass)),
      wd = wn * Math.sqrt(1 - zeta * zeta);
    const e0 = x0 - xr;
    res.get('s.q').forEach((x, k) => {
      const t = res.time[k];
      const want = xr + Math.exp(-zeta * wn * t) * (e0 * Math.cos(wd * t) + ((zeta * wn * e0) / wd) * Math.sin(wd * t));
      expect(Math.abs(x - want), `x at ${t}`).toBeLessThan(1e-8);
    });
  });

  it("an equation that defines an input of another library: speed feedback on a TorqueSource, J w' = -k w, w = w0 exp(-k t / J) to 1e-10", () => {
    const J = 2,
      k = 3,
      w0 = 4;
    const m = new Model('brake');
    const src = m.add(new rotational.TorqueSource('src', { input: true }));
    const shaft = m.add(new rotational.ShaftS('s', { J, w: w0 }));
    m.connect(src.flange, shaft.l);
    const tau = src.variables.find((v) => v.localName === 'tau')!.e;
    const w = shaft.variables.find((v) => v.localName === 'w')!.e;
    m.equation(tau, mul(-k, w));
    const c = compile(m);
    expect(c.generated.layout.inputs).toEqual([]);
    const res = simulate(c, { stop: 1, step: 1e-3, interval: 0.1, signals: ['s.w', 'src.tau'] });
    res.get('s.w').forEach((v, i) => {
      expect(Math.abs(v - w0 * Math.exp((-k * res.time[i]) / J))).toBeLessThan(1e-10);
      expect(res.get('src.tau')[i]).toBeCloseTo(-k * v, 12);
    });
  });

  it('a PD whose reference is another signal: j2 follows j1.q, qd_ref defaults to 0, the same run as the law from code (1e-12)', () => {
    // two vertical-axis arms side by side: j1 steps to 0.5, j2 tracks j1.q
    const build = (inModel: boolean) => {
      const m = new Mechanism('follower');
      const joints = [1, 2].map((k) => {
        const j = m.revolute(`j${k}`, { axis: [0, 1, 0] });
        const b = m.body(`b${k}`, { m: 1, rcm: [0.3, 0, 0], I: [0.01, 0.01, 0.01] });
        m.connect(m.world.frame_b, j.frame_a);
        m.connect(j.frame_b, b.frame_a);
        return j;
      });
      m.add(new control.PD('pd1', joints[0], { kp, kd, ref: 0.5 }));
      if (inModel) m.add(new control.PD('pd2', joints[1], { kp, kd, ref: joints[0].q }));
      return m;
    };
    const signals = ['j1.q', 'j1.qd', 'j2.q', 'j2.qd', 'j2.tau'];
    const a = simulate(compile(build(true)), { stop: 2, step: 1e-3, interval: 0.1, signals });
    const b = simulate(compile(build(false)), {
      stop: 2,
      step: 1e-3,
      interval: 0.1,
      signals,
      controller: (_t, x, u) => {
        u['j2.tau'] = kp * (x['j1.q'] - x['j2.q']) - kd * x['j2.qd'];
      },
    });
    expect(a.final('j2.q')).toBeGreaterThan(0.3); // it did follow
    for (const s of signals) a.get(s).forEach((v, k) => expect(Math.abs(b.get(s)[k] - v), `${s} at ${a.time[k]}`).toBeLessThan(1e-12));
  });

  it('a PD whose target has no drive input is a ModelError naming the PD', () => {
    const m = new Model('plain');
    const x = m.variable('x', { start: 0 });
    m.equation(der(x), 1);
    expect(() => new control.PD('pd', { q: x, qd: x, tau: x }, { kp: 1, kd: 1 })).toThrow(/PD pd acts on x, which is not a drive input/);
    expect(() => new control.PD('pd', { q: x, qd: x, tau: m.input('u') }, { kp: -1, kd: 1 })).toThrow(/PD pd: gain kp = -1 is negative/);
  });
});

describe('growMatching: the unknowns keep their equations', () => {
  it('two equations in x, each with its own input: x stays matched, one input is promoted', () => {
    // e0: {x, u1}, e1: {x, u2}; unknowns first (var 0 = x), then the inputs (1 = u1, 2 = u2)
    const unknownsOnly = maximumMatching(bipartiteFromLists(1, [[0], [0]]));
    expect(unknownsOnly.size).toBe(1);
    const grown = growMatching(
      bipartiteFromLists(3, [
        [0, 1],
        [0, 2],
      ]),
      unknownsOnly,
    );
    expect(grown.size).toBe(2);
    expect(grown.varToEq[0]).toBeGreaterThanOrEqual(0);
    expect([grown.varToEq[1], grown.varToEq[2]].filter((e) => e >= 0)).toHaveLength(1);
  });
});
