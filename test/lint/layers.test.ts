// The import rules of eslint.config.js (scripts/eslint/layers.js), on
// imports written into files of each stage (linted as text, nothing
// written): a stage that imports a later one, or the engine that imports the
// viewer or bench/, is an error; the imports the pipeline allows are not.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const eslint = new ESLint({ cwd: root });

/** the rule ids reported for `import` of `what` in the file `where` */
async function reported(where: string, what: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import * as x from '${what}';\nexport const y = x;\n`, { filePath: `${root}${where}` });
  return result.messages.map((m) => m.ruleId ?? m.message);
}

describe('lint: the pipeline layers', () => {
  it.each([
    ['src/structure/new-pass.ts', '../codegen/ops.ts'],
    ['src/library/multibody/new-joint.ts', '../../structure/plan.ts'],
    ['src/cli/new-command.ts', '../../bench/speed.ts'],
    ['src/cli/new-command.ts', '../../viewer/page/player.ts'],
    ['src/new-entry.ts', '../viewer/browser.ts'],
  ])('%s may not import %s', async (where, what) => {
    expect(await reported(where, what)).toEqual(['kron/layers']);
  });

  it.each([
    ['src/codegen/new-printer.ts', '../structure/plan.ts'],
    ['src/library/multibody/new-joint.ts', '../../expr/index.ts'],
    ['viewer/page/new-panel.ts', '../../src/compile.ts'],
    ['bench/new-bench.ts', '../src/bench/timing.ts'],
  ])('%s may import %s', async (where, what) => {
    expect(await reported(where, what)).toEqual([]);
  });

  it('export ... from and import() count as imports', async () => {
    const [result] = await eslint.lintText("export { x } from '../codegen/ops.ts';\nexport const y = () => import('../codegen/generate.ts');\n", {
      filePath: `${root}src/structure/new-pass.ts`,
    });
    expect(result.messages.map((m) => m.ruleId)).toEqual(['kron/layers', 'kron/layers']);
  });
});
