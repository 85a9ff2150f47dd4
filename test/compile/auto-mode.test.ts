// Mode 'auto' (--mode auto, the default): the one of the torn and the relaxed
// form with the lower weighted operation count kept; the torn form is not
// compiled when a lower bound of its count is above the relaxed form's.
// Checked against compiles of each form on their own: the choice is the
// cheaper by the stated weights, the code kept is the chosen form's (same
// derivatives, bit for bit), and a model neither form compiles raises the
// torn form's error.
import { describe, expect, it } from 'vitest';
import fourbar from '../../mechanisms/fourbar.ts';
import puma560 from '../../mechanisms/puma560.ts';
import chain from '../../mechanisms/chain.ts';
import { Model, add, compile, der, type CompiledModel } from '../../src/index.ts';
import { main } from '../../src/cli/main.ts';

const cost = (c: CompiledModel) => c.report.ops.mul + c.report.ops.add + 4 * (c.report.ops.div + c.report.ops.fn);

function derivatives(c: CompiledModel, x: Float64Array): Float64Array {
  const dx = new Float64Array(x.length);
  c.createState().derivatives(0.3, x, dx);
  return dx;
}

describe("mode 'auto'", () => {
  for (const [name, build] of [
    ['fourbar', () => fourbar({})],
    ['puma560', () => puma560({})],
    ['chain n = 12', () => chain({ n: 12 })],
  ] as const) {
    it(`${name}: keeps the cheaper form, and it computes what that form compiled alone computes`, () => {
      const torn = compile(build(), { mode: 'torn' }),
        relaxed = compile(build(), { mode: 'relaxed' });
      const auto = compile(build(), { mode: 'auto' });
      const expected = cost(relaxed) <= cost(torn) ? relaxed : torn;
      expect(auto.report.mode).toBe(expected.report.mode);
      const tornEntry = auto.report.auto!.torn;
      expect(auto.report.auto).toEqual({
        chosen: expected.report.mode,
        // not compiled when a lower bound of its cost is above the relaxed form's (the four-bar's)
        torn: 'atLeast' in tornEntry ? { atLeast: tornEntry.atLeast } : { cost: cost(torn), ops: torn.report.ops },
        relaxed: { cost: cost(relaxed), ops: relaxed.report.ops },
      });
      if ('atLeast' in tornEntry) expect(tornEntry.atLeast).toBeGreaterThan(cost(relaxed));
      if ('atLeast' in tornEntry) expect(tornEntry.atLeast).toBeLessThanOrEqual(cost(torn));
      expect(auto.report.ops).toEqual(expected.report.ops);
      const x = auto.x0().map((v, i) => v + 0.1 * Math.sin(i + 1));
      expect(derivatives(auto, x)).toEqual(derivatives(expected, x));
    });
  }

  it('the four-bar goes relaxed and the PUMA torn (what the counts say of them today)', () => {
    expect(compile(fourbar({}), { mode: 'auto' }).report.auto?.chosen).toBe('relaxed');
    expect(compile(puma560({}), { mode: 'auto' }).report.auto?.chosen).toBe('torn');
  });

  it("a long chain: the torn form is not compiled, and the bound auto read is below its cost and above the relaxed form's", () => {
    const auto = compile(chain({ n: 24 })),
      torn = compile(chain({ n: 24 }), { mode: 'torn' }),
      relaxed = compile(chain({ n: 24 }), { mode: 'relaxed' });
    expect(auto.report.mode).toBe('relaxed');
    const entry = auto.report.auto!.torn;
    expect('atLeast' in entry && entry.atLeast).toBeGreaterThan(cost(relaxed));
    expect('atLeast' in entry && entry.atLeast).toBeLessThanOrEqual(cost(torn));
    expect(auto.report.ops).toEqual(relaxed.report.ops);
  });

  // the torn form starts from the relaxed form's flattened model and its nodes (compile.ts, Front): its
  // code must be what a compile of the torn form alone prints, since node ids fix the order of sums
  for (const [name, options] of [
    ['forward', {}],
    ['inverse', { problem: 'inverse' }],
    ['parameters kept', { foldParameters: false }],
  ] as const) {
    it(`the PUMA, ${name}: the module kept is byte for byte its form compiled alone, and the torn form counts what it counts alone`, () => {
      const auto = compile(puma560({}), options),
        alone = compile(puma560({}), { ...options, mode: auto.report.mode });
      const torn = compile(puma560({}), { ...options, mode: 'torn' });
      expect(auto.source()).toBe(alone.source());
      expect({ ...auto.report, auto: undefined, compileMs: 0 }).toEqual({ ...alone.report, compileMs: 0 });
      expect(auto.report.auto!.torn).toEqual({ cost: cost(torn), ops: torn.report.ops });
    });
  }

  it("a model neither form compiles: the torn form's error", () => {
    const m = new Model('singular');
    // y appears in no equation but x's, which it has to determine along with z: two unknowns, one equation
    const x = m.variable('x', { start: 0 }),
      y = m.variable('y'),
      z = m.variable('z');
    m.equation(der(x), add(y, z));
    const torn = (() => {
      try {
        compile(m, { mode: 'torn' });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(torn).toBeInstanceOf(Error);
    expect(() => compile(m, { mode: 'auto' })).toThrow(torn!.message);
  });

  it('kron compile --mode auto says what it chose and why; an unknown mode names the three', async () => {
    let stdout = '',
      stderr = '';
    const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } };
    expect(await main(['compile', 'mechanisms/fourbar.ts', '--mode', 'auto'], io)).toBe(0);
    expect(stdout).toMatch(/^model fourbar \(relaxed\)/);
    expect(stdout).toMatch(
      /--mode auto chose relaxed: torn cost at least \d+ \(not compiled: its loops' forming and solving alone\), relaxed cost \d+ \(mul \+ add \+ 4 \(div \+ fn\)\)/,
    );
    // the default: the PUMA's torn form is the cheaper, both compiled
    stdout = '';
    expect(await main(['compile', 'mechanisms/puma560.ts', '--no-cache'], io)).toBe(0);
    expect(stdout).toMatch(/^model puma560 \(torn\)/);
    expect(stdout).toMatch(/--mode auto chose torn: torn cost \d+, relaxed cost \d+ \(mul \+ add \+ 4 \(div \+ fn\)\)/);
    expect(await main(['compile', 'mechanisms/fourbar.ts', '--mode', 'fast'], io)).not.toBe(0);
    expect(stderr).toContain('--mode must be torn, relaxed or auto, got "fast"');
  });
});
