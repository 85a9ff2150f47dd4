// Every link of the README and docs/ resolves: a relative link names a file
// of the repository, and its #fragment a heading of that file (GitHub's
// slugs: lower case, punctuation dropped, spaces as hyphens). The README was
// split into docs/ (guide, theory, performance); this keeps the pieces joined.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path.endsWith(join('docs', 'reference', 'api')) ? [] : markdownFiles(path);
    return e.name.endsWith('.md') ? [path] : [];
  });
}

/** the text outside fenced code blocks */
const prose = (text: string) => text.replace(/```[\s\S]*?```/g, '');

/** GitHub's anchor of a heading */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /g, '-');

function anchors(file: string): Set<string> {
  return new Set([...prose(readFileSync(file, 'utf8')).matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1])));
}

const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

describe('links of the README and docs/', () => {
  it('the docs are there: README, guide, theory, performance', () => {
    const names = files.map((f) => relative(root, f));
    for (const f of ['README.md', 'docs/guide/getting-started.md', 'docs/guide/mechanisms.md', 'docs/theory/how-it-works.md', 'docs/performance/benchmarks.md']) expect(names).toContain(f);
  });

  it.each(files.map((f) => [relative(root, f), f]))('%s: every relative link and anchor resolves', (_name, file) => {
    const broken: string[] = [];
    for (const [, target] of prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, fragment] = target.split('#');
      const to = path ? join(dirname(file), path) : file;
      if (!existsSync(to)) {
        broken.push(`${target}: no file ${relative(root, to)}`);
        continue;
      }
      if (fragment && to.endsWith('.md') && statSync(to).isFile() && !anchors(to).has(fragment)) broken.push(`${target}: no heading #${fragment} in ${relative(root, to)}`);
    }
    expect(broken).toEqual([]);
  });
});
