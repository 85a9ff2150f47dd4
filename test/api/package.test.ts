// The package as users import it, inside the repository: `import { ... }
// from 'kron'` resolves to the sources, src/index.ts (vitest's alias,
// tsconfig.json's paths for TypeScript, which type-checks this file, and for
// node with tsx). Installed, 'kron' is the build in dist/:
// test/package/pack.test.ts.
import { execFileSync } from 'node:child_process';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as kron from 'kron';
import { Mechanism, ModelError, compile, simulate, SimulationResult } from 'kron';
import * as direct from '../../src/index.ts';

const root = new URL('../../', import.meta.url).pathname;

describe("import from 'kron'", () => {
  it('is the module src/index.ts, with the builder, compile, simulate, results, URDF and errors', () => {
    expect(Object.keys(kron).sort()).toEqual(Object.keys(direct).sort());
    for (const name of [
      'Mechanism',
      'Body',
      'Revolute',
      'Prismatic',
      'Model',
      'Component',
      'compile',
      'simulate',
      'SimulationResult',
      'loadUrdf',
      'KronError',
      'ModelError',
      'UsageError',
      'der',
      'residue',
      'relax',
    ]) {
      expect(typeof (kron as Record<string, unknown>)[name], name).toBe('function');
    }
    expect(Object.keys(kron.rotational)).toContain('Shaft');
    expect(Object.keys(kron.electrical)).toContain('Resistor');
  });
  it('types signal names: a result only answers for the signals it recorded', () => {
    const m = new Mechanism('slide');
    const j = m.prismatic('j', { axis: [1, 0, 0], tau: 2 });
    const b = m.body('b', { m: 4 });
    m.connect(m.world.frame_b, j.frame_a);
    m.connect(j.frame_b, b.frame_a);
    const r = simulate(compile(m), { stop: 1, step: 0.1, signals: ['j.q', 'j.qd'] });
    expectTypeOf(r).toEqualTypeOf<SimulationResult<'j.q' | 'j.qd'>>();
    // @ts-expect-error 'j.qdd' was not recorded
    expect(() => r.get('j.qdd')).toThrow(/signal j.qdd was not recorded/);
    expect(r.final('j.q')).toBeCloseTo(0.5 * (2 / 4) * 1, 12); // x = F t^2 / (2 m)
    expect(() => m.body('heavy', { m: -1 })).toThrow(ModelError);
  });
  it('the browser entry (src/api.ts) is the same API without loadUrdf and loadMjcf, which read files, and the sweeps, which run on worker threads', async () => {
    const browser = await import('../../src/api.ts');
    const nodeOnly = [
      'loadUrdf',
      'loadMjcf',
      'sweep',
      'sweepCompiled',
      'sweepPoints',
      'sweepCSV',
      'parseGrid',
      'parseDist',
      'expandRuns',
      'MAX_RUNS',
      'SweepPoints',
      'Random',
    ];
    expect(Object.keys(browser).sort()).toEqual(
      Object.keys(kron)
        .filter((k) => !nodeOnly.includes(k))
        .sort(),
    );
    expect(browser.compile).toBe(kron.compile); // one module graph: the same classes and functions
  });
  it('resolves in node with tsx: node --import tsx -e "import(\'kron\')"', () => {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', '-e', "import('kron').then((k) => console.log(typeof k.Mechanism, typeof k.compile, typeof k.simulate))"],
      { cwd: root, encoding: 'utf8' },
    );
    expect(out.trim()).toBe('function function function');
  });
});
