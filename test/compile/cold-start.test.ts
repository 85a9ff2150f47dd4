// The repository's `kron` runs the built dist/ when it was built from the
// sources as they are (bin/kron.mjs, scripts/build-inputs.mjs distIsFresh):
// through tsx, Kron's modules cost ~0.4 s of CPU more at every start (issue
// 35). Checked on a tree of our own whose file times we set: fresh after a
// build, stale after an input is written, added or removed, without a stamp
// or without dist/; and the repository's CLI prints the same compile report
// from dist/ as from its sources (a model module's 'kron' is then dist/'s,
// the classes the CLI checks against).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { STAMP_PATH, distIsFresh } from '../../scripts/build-inputs.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** a repository as the build leaves it: inputs written at t = 1000 s, the stamp dated 2000 s, dist/ built */
function built(): string {
  const at = mkdtempSync(join(tmpdir(), 'kron-fresh-'));
  dirs.push(at);
  const files = ['src/cli/main.ts', 'src/expr/node.ts', 'viewer/app.ts', 'package.json', 'dist/src/cli/main.js', STAMP_PATH];
  for (const f of files) {
    mkdirSync(dirname(join(at, f)), { recursive: true });
    writeFileSync(join(at, f), f);
  }
  for (const p of ['src/cli/main.ts', 'src/cli', 'src/expr/node.ts', 'src/expr', 'src', 'viewer/app.ts', 'viewer', 'package.json'])
    utimesSync(join(at, p), 1000, 1000);
  utimesSync(join(at, STAMP_PATH), 2000, 2000);
  return at;
}

describe('dist/ fresh by file times (bin/kron.mjs)', () => {
  it('is fresh when no input was written after the stamp', () => {
    expect(distIsFresh(built())).toBe(true);
  });

  it('is stale when a source was edited, added or removed since', () => {
    const edited = built();
    utimesSync(join(edited, 'src/expr/node.ts'), 3000, 3000);
    expect(distIsFresh(edited)).toBe(false);
    const added = built();
    writeFileSync(join(added, 'src/expr/new.ts'), '');
    expect(distIsFresh(added)).toBe(false);
    // a removal changes only its folder's time
    const removed = built();
    rmSync(join(removed, 'src/expr/node.ts'));
    utimesSync(join(removed, 'src/expr'), 3000, 3000);
    expect(distIsFresh(removed)).toBe(false);
  });

  it('is stale without a stamp or without dist/', () => {
    const unstamped = built();
    rmSync(join(unstamped, STAMP_PATH));
    expect(distIsFresh(unstamped)).toBe(false);
    const unbuilt = built();
    rmSync(join(unbuilt, 'dist'), { recursive: true });
    expect(distIsFresh(unbuilt)).toBe(false);
  });

  it("is each checkout's own: a worktree sharing node_modules with a built one is not fresh", () => {
    // git worktrees that link one node_modules (a stamp kept there was read by all of them)
    const builtOne = built();
    const other = built();
    rmSync(join(other, STAMP_PATH));
    mkdirSync(join(builtOne, 'node_modules'));
    symlinkSync(join(builtOne, 'node_modules'), join(other, 'node_modules'));
    expect(distIsFresh(builtOne)).toBe(true);
    expect(distIsFresh(other)).toBe(false);
  });
});

describe('the repository CLI from dist/ and from its sources', () => {
  // a model module importing 'kron' (mechanisms/), and one importing Kron's sources by path (src/node/repo-sources.ts)
  for (const model of ['mechanisms/fourbar.ts', 'test/errors/fixtures/blowup.ts']) {
    it(`prints the same compile report for ${model}`, () => {
      const run = (env: Record<string, string>) =>
        execFileSync(process.execPath, ['bin/kron.mjs', 'compile', model, '--no-cache'], {
          cwd: root,
          encoding: 'utf8',
          env: { ...process.env, ...env },
        }).replace(/compiled in [\d.]+ ms/, 'compiled in – ms');
      // when dist/ is stale both run the sources, and the comparison is still true
      expect(run({})).toBe(run({ KRON_FROM_SOURCES: '1' }));
    });
  }
});
