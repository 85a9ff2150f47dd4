// npm run docs:bench: renders the generated tables of docs/performance/*.md
// again from bench/results/*.json (scripts/bench-docs-text.ts). Tests never
// write tracked files; test/docs/bench-pages.test.ts checks the pages are
// what this would write.
import { readFileSync, writeFileSync } from 'node:fs';
import { benchPages } from './bench-docs-text.ts';
import { KronError } from '../src/errors.ts';

try {
  for (const [path, text] of benchPages()) {
    if (readFileSync(path, 'utf8') === text) continue;
    writeFileSync(path, text);
    process.stdout.write(`wrote ${path}\n`);
  }
} catch (e) {
  if (!(e instanceof KronError)) throw e;
  process.stderr.write(e.describe() + '\n');
  process.exitCode = 2;
}
