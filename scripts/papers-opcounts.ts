// npm run docs:opcounts: writes docs/papers-opcounts.md, the resistor
// ladder's operation counts beside the tearing paper's. Tests never write
// tracked files; test/papers/resistorladder.test.ts checks that this file is
// what this script would write today.
import { writeFileSync } from 'node:fs';
import { opCountsMarkdown } from '../test/papers/resistorladder-counts.ts';

const file = new URL('../docs/papers-opcounts.md', import.meta.url);
writeFileSync(file, opCountsMarkdown());
process.stdout.write(`wrote ${file.pathname}\n`);
