// The code of the README and of docs/, checked as it stands on the page:
//   - every ```ts block type-checks against Kron's types (kron check's
//     checker, src/node/type-check.ts), all in one program. A block without
//     imports is an excerpt of a model: it gets Kron's exports and a
//     Mechanism `m` in front. A block marked ```ts fragment (names it does
//     not define) is left out, and counted.
//   - every kron command of a ```sh block names a command that exists, and
//     only flags that command's help lists; every `npm run x` a script of
//     package.json. (What the commands print is checked where it matters by
//     the tests each page names; running every one here would cost minutes.)
// Programs that the pages show whole are also run, with oracles, by
// test/api/readme.test.ts, test/dynamics/readme.test.ts,
// test/contact/readme.test.ts, test/sweep/readme.test.ts and, for the
// getting-started guide, test/package/pack.test.ts.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main.ts';
import * as kron from '../../src/index.ts';
import { typeCheck } from '../../src/node/type-check.ts';

const root = new URL('../../', import.meta.url).pathname;

/** README.md and every Markdown file under docs/ */
function pages(): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) out.push(path);
    }
  };
  walk('docs');
  return out;
}

interface Block {
  page: string;
  /** the line of the page where the code starts */
  line: number;
  lang: string;
  info: string;
  code: string;
}

function blocks(page: string): Block[] {
  const text = readFileSync(join(root, page), 'utf8');
  return [...text.matchAll(/^```(\w+)[ \t]*([^\n]*)\n([\s\S]*?)^```/gm)].map((m) => ({
    page, line: text.slice(0, m.index).split('\n').length + 1, lang: m[1], info: m[2].trim(), code: m[3],
  }));
}

const all = pages().flatMap(blocks);
const work = mkdtempSync(join(tmpdir(), 'kron-doc-blocks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('code blocks of the README and docs/', () => {
  it('every ts block type-checks against Kron\'s types', async () => {
    // model modules are ES modules
    writeFileSync(join(work, 'package.json'), '{ "type": "module" }\n');
    const values = Object.keys(kron).filter((k) => /^[A-Za-z]\w*$/.test(k)).sort();
    const preamble = (code: string) => `import { ${values.join(', ')} } from 'kron';\n${/\b(const|let) m\b/.test(code) ? '' : 'declare const m: Mechanism;'}\n`;
    const files = new Map<string, { block: Block; offset: number }>();
    const ts = all.filter((b) => b.lang === 'ts');
    for (const [k, block] of ts.entries()) {
      if (block.info === 'fragment') continue;
      const excerpt = !/^import /m.test(block.code);
      // a page's file=name block is that file (another block imports it); a relative import names a file of the
      // repository (the guide's code runs at its root: './mechanisms/pendulum.ts'), or else of the page's folder
      const name = block.info.startsWith('file=') ? block.info.slice(5) : `block-${k}.ts`;
      const code = block.code.replace(/(from\s+')(\.{1,2}\/[^']+)(')/g, (all, a, path, b) => {
        const there = [join(root, path), join(root, dirname(block.page), path)].find((p) => existsSync(p));
        return there ? `${a}${there}${b}` : all;
      });
      writeFileSync(join(work, name), `${excerpt ? preamble(code) : ''}${code}${excerpt ? '\nexport {};\n' : ''}`);
      files.set(join(work, name), { block, offset: excerpt ? 2 : 0 });
    }
    const diagnostics = await typeCheck([...files.keys()]);
    const where = diagnostics.map((d) => {
      const file = [...files.entries()].find(([path]) => d.file && path.endsWith(d.file.replace(/^.*[\\/]/, '')));
      return file ? `${file[1].block.page}:${file[1].block.line + d.line - 1 - file[1].offset}: ${d.message}` : `${d.file}:${d.line}: ${d.message}`;
    });
    expect(where).toEqual([]);
    // what is left out is few, and said
    expect(ts.filter((b) => b.info === 'fragment').length).toBeLessThanOrEqual(2);
    expect(files.size).toBeGreaterThanOrEqual(10);
  }, 120_000);

  it('every kron command of a sh block exists and takes the flags it is given; every npm run script exists', async () => {
    const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const help = new Map<string, string>();
    for (const name of Object.keys(COMMANDS)) help.set(name, (await COMMANDS[name].load()).help);
    const wrong: string[] = [];
    let commands = 0;
    for (const block of all.filter((b) => b.lang === 'sh' || b.lang === 'bash')) {
      for (const [i, line] of block.code.split('\n').entries()) {
        // one command at a time, its comment dropped
        for (const command of line.replace(/(^|\s)#.*$/, '').split(/&&|\|\||;|\|/)) {
          const words = command.trim().split(/\s+/);
          const at = `${block.page}:${block.line + i}`;
          const kronAt = words.findIndex((w, k) => w === 'kron' && (k === 0 || words[k - 1] === 'npx') || w === 'bin/kron.mjs');
          if (words[0] === 'npm' && words[1] === 'run' && !(words[2] in scripts)) wrong.push(`${at}: npm run ${words[2]}: no such script`);
          if (kronAt < 0) continue;
          const [name, ...args] = words.slice(kronAt + 1);
          if (name === undefined || name.startsWith('-')) continue;
          commands++;
          if (!help.has(name)) {
            wrong.push(`${at}: kron ${name}: no such command`);
            continue;
          }
          for (const flag of args.filter((a) => /^--[a-z]/.test(a)).map((a) => a.split('=')[0])) {
            if (flag !== '--help' && !help.get(name)!.includes(flag)) wrong.push(`${at}: kron ${name} has no flag ${flag}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(commands).toBeGreaterThan(50);
  });
});
