// docs/reference/cli.md is what `npm run docs` writes from the help texts
// today: a flag added to a command's help and not to the page (or the page
// edited by hand) fails here. And every command of kron --help has its
// section, with its help as `kron <command> --help` prints it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliReference } from '../../scripts/cli-reference-text.ts';
import { COMMANDS, main } from '../../src/cli/main.ts';

const page = readFileSync(new URL('../../docs/reference/cli.md', import.meta.url), 'utf8');

describe('docs/reference/cli.md', () => {
  it('is what npm run docs generates from the help texts (run it after changing a help text)', async () => {
    expect(page).toBe(await cliReference());
  });

  it('holds each command\'s help as kron <command> --help prints it', async () => {
    for (const name of Object.keys(COMMANDS)) {
      let stdout = '';
      const code = await main([name, '--help'], { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: () => true } });
      expect(code, name).toBe(0);
      const section = page.split(`\n## kron ${name}\n`)[1]?.split('\n## kron ')[0];
      expect(section, name).toBeDefined();
      // the same lines, but for the thread counts of this machine
      expect(section).toContain(stdout.trimEnd().replace(/, \d+ here\)/g, ')'));
    }
  });
});
