// The contact example of docs/guide/contact.md, extracted and run as a user
// runs it (node --import tsx, 'kron' by name): the sphere ends rolling at
// 5 v0 / 7 (the closed form of a solid sphere launched sliding).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

describe('docs/guide/contact.md: the contact example', () => {
  it('runs as written and rolls at 5 v0 / 7', () => {
    const code = /```ts\n([\s\S]*?)```/.exec(readFileSync(join(root, 'docs/guide/contact.md'), 'utf8'))![1];
    const dir = join(root, 'test-artifacts');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'readme-contact-example.ts');
    writeFileSync(file, code);
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(Math.abs(Number(r.stdout.trim()) / ((5 * 2) / 7) - 1)).toBeLessThan(1e-3);
  });
});
