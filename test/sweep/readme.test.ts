// docs/guide/sweeps.md, run as written: its local kron sweep
// commands (the queued ones need a Redis server: queue.test.ts runs them
// the same way) and its API example. Outputs go to test-artifacts/.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kronInProcess } from '../cli/in-process.ts';

const root = new URL('../../', import.meta.url).pathname;
const section = readFileSync(join(root, 'docs/guide/sweeps.md'), 'utf8');
const artifacts = join(root, 'test-artifacts');

/** a shell line's words, with its '…' quotes */
const words = (line: string) => [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);

describe('docs/guide/sweeps.md', () => {
  it('the local kron sweep commands run and write the CSV they name', async () => {
    const sh = /```sh\n([\s\S]*?)```/.exec(section)![1];
    const commands = sh.split('\n').filter((l) => l.startsWith('npx kron sweep') && !l.includes('--queue'));
    expect(commands).toHaveLength(2);
    mkdirSync(artifacts, { recursive: true });
    for (const line of commands) {
      const args = words(line).slice(2);
      const out = join(artifacts, `readme-${args.indexOf('--out') >= 0 ? args[args.indexOf('--out') + 1].split('/').pop() : 'sweep.csv'}`);
      args.splice(args.indexOf('--out'), 2, '--out', out);
      // in this process (main()): the command's words as written, without a tsx start per command
      const r = await kronInProcess(...args, '--workers', '2');
      expect(r.stderr).toMatch(/^wrote \d+ runs \(0 failed\)/);
      expect(r.status).toBe(0);
      const rows = readFileSync(out, 'utf8').trim().split('\n');
      expect(rows[0]).toMatch(/^run,.*,status,error,final\(/);
      expect(rows.length - 1).toBe(line.includes('--samples 20') ? 20 : 12);
    }
  });

  it('the API example prints one line per run in run order', () => {
    const code = /```ts\n([\s\S]*?)```/.exec(section)![1];
    mkdirSync(artifacts, { recursive: true });
    const file = join(artifacts, 'readme-sweep-example.ts');
    writeFileSync(file, code.replace("'./mechanisms/pendulum.ts'", "'../mechanisms/pendulum.ts'"));
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(' ').slice(0, 3).join(' ')),
    ).toEqual(['0 -1 ok', '1 0 ok', '2 1 ok']);
  });
});
