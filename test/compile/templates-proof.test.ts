// Templates on every model of mechanisms/ and the URDF robots the repository
// ships: compiled with templates (the default, where report.templates says a
// template pays) and flat (templates: false), both forms, the templated
// compile's derivatives and workspace are the flat one's bit for bit at
// states near the start (the oracle: the flat compile; codegen/templates.ts
// runs the flat operations in the flat order). A model where no template
// pays compiles the same module text either way.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Model, compile, loadUrdf } from '../../src/index.ts';
import { prng } from '../multibody/random-tree.ts';

const dir = new URL('../../mechanisms/', import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .sort();
const URDF = ['mechanisms/puma560.urdf', 'test/limits/fixtures/arm.urdf'];

const cases: [string, () => Promise<() => Model>][] = [
  ...files.map((f): [string, () => Promise<() => Model>] => [
    f,
    async () => {
      const build = (await import(`../../mechanisms/${f}`)).default as (p?: object) => Model;
      return () => build({});
    },
  ]),
  ...URDF.map((u): [string, () => Promise<() => Model>] => [u, async () => () => loadUrdf(new URL(`../../${u}`, import.meta.url).pathname).mechanism]),
];

describe('templated and flat compiles compute the same numbers on every model', () => {
  it.each(cases)('%s', async (name, load) => {
    const build = await load();
    for (const mode of ['torn', 'relaxed'] as const) {
      let flat;
      try {
        flat = compile(build(), { mode, templates: false });
      } catch {
        continue; // a model this form does not compile (the relaxing iteration's grid needs its own option): nothing to compare
      }
      const templated = compile(build(), { mode });
      const report = templated.report.templates!;
      if (!report.used) expect(templated.generated.body).toBe(flat.generated.body);
      expect(templated.generated.layout).toEqual(flat.generated.layout);
      const next = prng([...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7));
      for (let k = 0; k < 3; k++) {
        const x = Float64Array.from(flat.x0(), (v) => v + (k === 0 ? 0 : 0.05 * (next() - 0.5)));
        const a = templated.createState(),
          b = flat.createState();
        const da = new Float64Array(x.length),
          db = new Float64Array(x.length);
        let failed: unknown;
        try {
          b.derivatives(0.1, x, db);
        } catch (e) {
          failed = e; // a state the model cannot evaluate at (a loop that does not close): the templated code fails alike
        }
        if (failed) {
          expect(() => a.derivatives(0.1, x, da)).toThrow();
          continue;
        }
        a.derivatives(0.1, x, da);
        expect([...da]).toEqual([...db]);
        expect([...a.w]).toEqual([...b.w]);
      }
    }
  });
});
