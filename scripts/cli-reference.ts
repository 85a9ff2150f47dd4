// npm run docs: writes docs/reference/cli.md from the commands' help texts
// (scripts/cli-reference-text.ts). Tests never write tracked files;
// test/docs/cli-reference.test.ts checks the file is what this would write.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cliReference } from './cli-reference-text.ts';

const file = new URL('../docs/reference/cli.md', import.meta.url);
mkdirSync(new URL('.', file), { recursive: true });
writeFileSync(file, await cliReference());
process.stdout.write(`wrote ${file.pathname}\n`);
