// docs/ARCHITECTURE.md names files and functions; issue 34 found 7 of 10
// of its claims checked by hand wrong or partly wrong, drifted as the code
// moved. Here every file it names in backticks (a path, or a bare file name
// of the folder its section is about) exists in the repository, and every
// function it names (`name()`, `name(args)`) is defined in the code.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const doc = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');
// a file the document proposes, not one that exists: named after "e.g.", "say" or "such as" nearby
// ("**A new joint type** (say a cylindrical joint): 1. `src/library/multibody/cylindrical.ts`"), or
// what the build writes (dist/)
const proposed = (text: string, at: number) =>
  text.startsWith('dist/') || /(e\.g\.|such as|for example|\(say )[^`]*$/i.test(doc.slice(Math.max(0, at - 80), at));

/** every file of the repository's own folders, as paths from its root */
function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'dist' || name === 'test-artifacts') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else out.push(relative(root, path));
  }
  return out;
}
const all = files(root);
const folders = new Set(
  all.flatMap((f) =>
    f
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
const code = all
  .filter((f) => /\.(ts|mjs|js)$/.test(f) && !f.startsWith('test/'))
  .map((f) => readFileSync(join(root, f), 'utf8'))
  .join('\n');

/** a function, method, or function-valued constant of that name is defined in the code (not only called) */
const defined = (name: string) =>
  new RegExp(
    `^\\s*(?:export\\s+)?(?:(?:public|protected|private|static|async|override|abstract|readonly|get|set|declare)\\s+)*(?:function\\*?\\s+)?\\*?${name}\\s*(?:<[^>]*>)?\\(`,
    'm',
  ).test(code) || new RegExp(`(?:const|let|var)\\s+${name}\\s*=|\\b${name}\\s*:\\s*(?:\\(|function|async)`).test(code);

const named = [...doc.matchAll(/`([^`\s]+)`/g)].map((m) => ({ text: m[1], at: m.index! }));

describe('docs/ARCHITECTURE.md names what exists', () => {
  it('every file and folder it names', () => {
    const missing = named
      .filter(({ text }) => /^[\w./-]+\.(ts|mjs|js|json|md)$/.test(text) || /^[\w.-]+(\/[\w.-]+)*\/$/.test(text))
      .filter(({ text, at }) => {
        const path = text.replace(/\/$/, '');
        const exists = text.endsWith('/')
          ? folders.has(path) || [...folders].some((f) => f.endsWith(`/${path}`))
          : all.some((f) => f === path || f.endsWith(`/${path}`));
        return !exists && !proposed(text, at);
      })
      .map(({ text }) => text);
    expect([...new Set(missing)]).toEqual([]);
  });

  it('every function it names', () => {
    const missing = named
      .map(({ text }) => /^([A-Za-z_$][\w$]*)\([^)]*\)$/.exec(text)?.[1])
      .filter((name): name is string => name !== undefined)
      .filter((name) => !defined(name));
    expect([...new Set(missing)]).toEqual([]);
  });
});
