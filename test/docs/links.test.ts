// Every relative link of the README and of docs/ leads somewhere: the file
// exists in this repository (a clone has it; the package ships README.md and
// the docs it names), and a #fragment is a heading of that file, by GitHub's
// rule for heading ids (lower case, punctuation dropped, spaces to hyphens,
// repeated headings numbered -1, -2, ...).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

/** README.md and every Markdown file under docs/ */
function pages(): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) out.push(path);
    }
  };
  walk('docs');
  return out;
}

/** the text outside code blocks and inline code, where links are links */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** the ids GitHub gives the headings of a Markdown text */
function headingIds(text: string): Set<string> {
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  for (const [, heading] of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = heading.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

describe('links of the README and docs/', () => {
  for (const page of pages()) {
    it(`${page}: every relative link names a file here, and a heading of it after #`, () => {
      const text = readFileSync(join(root, page), 'utf8');
      const links = [...prose(text).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/.test(t));
      for (const link of links) {
        const [path, fragment] = link.split('#');
        const target = path === '' ? join(root, page) : join(root, dirname(page), decodeURIComponent(path));
        expect(relative(root, target), `${link} leaves the repository`).not.toMatch(/^\.\./);
        expect(existsSync(target), `${page}: ${link}: no such file`).toBe(true);
        if (fragment !== undefined && target.endsWith('.md')) {
          expect(headingIds(readFileSync(target, 'utf8')).has(fragment), `${page}: ${link}: no such heading`).toBe(true);
        }
      }
    });
  }
});
