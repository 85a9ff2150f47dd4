// The per-file CPU table of docs/development.md, from what test/cpu/record.ts wrote:
//   KRON_TEST_CPU=/tmp/cpu.jsonl npx vitest run && npm run test:cpu -- /tmp/cpu.jsonl [rows]
// Rows are the costliest files first; "own" is the test file's worker process, "children"
// the processes it spawned (kron CLIs, npm, redis-server, Chromium) once they have exited.
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { relative } from 'node:path';

interface Row {
  file: string;
  self: number;
  children: number;
}

const [path, count = '25'] = process.argv.slice(2);
if (!path) {
  console.error('usage: npm run test:cpu -- <file written with KRON_TEST_CPU=file> [rows]');
  process.exit(2);
}
if (!existsSync(path)) {
  console.error(`${path} not found: write it with KRON_TEST_CPU=${path} npm test`);
  process.exit(2);
}
const rows = readFileSync(path, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Row)
  .sort((a, b) => b.self + b.children - (a.self + a.children));
const total = (r: Row) => r.self + r.children;
const sum = (f: (r: Row) => number) => rows.reduce((s, r) => s + f(r), 0);
const s = (x: number) => x.toFixed(1);

console.log(`${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model ?? 'unknown CPU'} x ${cpus().length}, Node ${process.version}\n`);
console.log('| file | CPU s | own | children |');
console.log('| --- | ---: | ---: | ---: |');
for (const r of rows.slice(0, Number(count))) console.log(`| ${relative(process.cwd(), r.file)} | ${s(total(r))} | ${s(r.self)} | ${s(r.children)} |`);
console.log(`| all ${rows.length} files | ${s(sum(total))} | ${s(sum((r) => r.self))} | ${s(sum((r) => r.children))} |`);
