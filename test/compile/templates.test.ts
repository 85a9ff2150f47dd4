// Repeated subsystems (model/templates.ts): the groups the report names are
// checked against what the models' builders make, counted from the builders'
// own loops, not from the detection: the chain's n bars, its joints about z
// (odd k) and about y (even k), n/2 each; link masses that differ are
// parameter values (one group), axes that differ are structure (two groups);
// a model without repetition, or with too little, says why it is flat.
import { describe, expect, it } from 'vitest';
import chain from '../../mechanisms/chain.ts';
import puma560 from '../../mechanisms/puma560.ts';
import pendulum from '../../mechanisms/pendulum.ts';
import { Mechanism, compile } from '../../src/index.ts';
import { MIN_INSTANCES, elaborate, findTemplates, templatesWouldPay } from '../../src/model/index.ts';

/** the chain of mechanisms/chain.ts with its link masses (and, when given, its axes) chosen per link */
function chainOf(n: number, mass: (k: number) => number, axis: (k: number) => [number, number, number]): Mechanism {
  const mech = new Mechanism('chain');
  let parent = mech.world.frame_b;
  for (let k = 1; k <= n; k++) {
    const j = mech.revolute(`j${k}`, { axis: axis(k) });
    const body = mech.body(`b${k}`, { m: mass(k), rcm: [0.15, 0, 0], I: [1e-4, 0.01, 0.01] });
    const bar = mech.bar(`bar${k}`, { r: [0.3, 0, 0] });
    mech.connect(parent, j.frame_a);
    mech.connect(j.frame_b, body.frame_a);
    mech.connect(j.frame_b, bar.frame_a);
    parent = bar.frame_b;
  }
  return mech;
}

const found = (m: Mechanism) => {
  elaborate(m);
  return findTemplates(m, new Map());
};
const group = (r: ReturnType<typeof findTemplates>, cls: string) => r.classes.filter((g) => g.class === cls).map((g) => g.instances);

describe('repeated subsystems (templates, first layer: detection)', () => {
  it('the relaxed chain: n bars, n/2 joints about z and n/2 about y, in compile().report.templates', () => {
    const n = 12;
    const report = compile(chain({ n }), { mode: 'relaxed' }).report.templates!;
    expect(group(report, 'FixedTranslation')).toEqual([n]);
    expect(group(report, 'Revolute').sort()).toEqual([n / 2, n / 2]);
    const odd = report.classes.find((g) => g.class === 'Revolute' && g.examples[0] === 'j1')!;
    expect(odd.examples).toEqual(['j1', 'j3', 'j5']);
    // a template would pay, and the compile uses templates (codegen/templates.ts; test/codegen/templates.test.ts)
    expect(report.used).toBe(true);
    expect(templatesWouldPay(report)).toBe(true);
    expect(report.reason).toMatch(/a template would pay: compiled as \d+ templates over \d+ instances' functions, \d+ loops/);
    // asked for flat, it says so
    const flat = compile(chain({ n }), { mode: 'relaxed', templates: false }).report.templates!;
    expect(flat.used).toBe(false);
    expect(flat.reason).toMatch(/a template would pay: templates: false asked for a flat compile: compiled flat$/);
  });

  it('masses that differ per link are parameter values: the bodies stay one group', () => {
    const n = 12;
    const same = found(
      chainOf(
        n,
        () => 1,
        () => [0, 0, 1],
      ),
    );
    const varied = found(
      chainOf(
        n,
        (k) => 1 + k / 10,
        () => [0, 0, 1],
      ),
    );
    expect(group(varied, 'Body')).toEqual(group(same, 'Body'));
    expect(group(varied, 'Revolute')).toEqual([n]);
  });

  it('axes that differ in which components are zero are structure: the joints split by axis', () => {
    const axes: [number, number, number][] = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
    const r = found(
      chainOf(
        12,
        () => 1,
        (k) => axes[k % 3],
      ),
    );
    expect(group(r, 'Revolute')).toEqual([4, 4, 4]);
    // fewer than MIN_INSTANCES of a kind are no group
    const few = found(
      chainOf(
        MIN_INSTANCES - 1,
        () => 1,
        () => [0, 0, 1],
      ),
    );
    expect(group(few, 'Revolute')).toEqual([]);
  });

  it('a model without repetition worth a template says why it is compiled flat', () => {
    const single = compile(pendulum()).report.templates!;
    expect(single.classes).toEqual([]);
    expect(single.reason).toMatch(/^no component class repeats 4 or more times/);
    // the PUMA's six joints repeat, but hold under half of its equations (its links differ: DH parameters, masses)
    const puma = compile(puma560()).report.templates!;
    expect(group(puma, 'Revolute')).toEqual([6]);
    expect(templatesWouldPay(puma)).toBe(false);
    expect(puma.reason).toMatch(/^repeated subsystems \(Revolute x6\) hold 44% of 454 equations, under 50%: compiled flat$/);
  });
});
