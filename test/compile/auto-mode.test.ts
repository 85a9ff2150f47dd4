// Mode 'auto' (--mode auto): both forms compiled, the one with the lower
// weighted operation count kept. Checked against compiles of each form on
// their own: the choice is the cheaper by the stated weights, the code kept
// is the chosen form's (same derivatives, bit for bit), and a model neither
// form compiles raises the torn form's error.
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
  for (const [name, build] of [['fourbar', () => fourbar({})], ['puma560', () => puma560({})], ['chain n = 12', () => chain({ n: 12 })]] as const) {
    it(`${name}: keeps the cheaper form, and it computes what that form compiled alone computes`, () => {
      const torn = compile(build(), { mode: 'torn' }), relaxed = compile(build(), { mode: 'relaxed' });
      const auto = compile(build(), { mode: 'auto' });
      const expected = cost(relaxed) <= cost(torn) ? relaxed : torn;
      expect(auto.report.mode).toBe(expected.report.mode);
      expect(auto.report.auto).toEqual({
        chosen: expected.report.mode,
        torn: { cost: cost(torn), ops: torn.report.ops },
        relaxed: { cost: cost(relaxed), ops: relaxed.report.ops },
      });
      expect(auto.report.ops).toEqual(expected.report.ops);
      const x = auto.x0().map((v, i) => v + 0.1 * Math.sin(i + 1));
      expect(derivatives(auto, x)).toEqual(derivatives(expected, x));
    });
  }

  it('the four-bar goes relaxed and the PUMA torn (what the counts say of them today)', () => {
    expect(compile(fourbar({}), { mode: 'auto' }).report.auto?.chosen).toBe('relaxed');
    expect(compile(puma560({}), { mode: 'auto' }).report.auto?.chosen).toBe('torn');
  });

  it('a model neither form compiles: the torn form\'s error', () => {
    const m = new Model('singular');
    // y appears in no equation but x's, which it has to determine along with z: two unknowns, one equation
    const x = m.variable('x', { start: 0 }), y = m.variable('y'), z = m.variable('z');
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
    let stdout = '', stderr = '';
    const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } };
    expect(await main(['compile', 'mechanisms/fourbar.ts', '--mode', 'auto'], io)).toBe(0);
    expect(stdout).toMatch(/^model fourbar \(relaxed\)/);
    expect(stdout).toMatch(/--mode auto chose relaxed: torn cost \d+, relaxed cost \d+ \(mul \+ add \+ 4 \(div \+ fn\)\)/);
    expect(await main(['compile', 'mechanisms/fourbar.ts', '--mode', 'fast'], io)).not.toBe(0);
    expect(stderr).toContain('--mode must be torn, relaxed or auto, got "fast"');
  });
});
