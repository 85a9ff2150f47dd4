// Two checkouts of Kron timed against each other in one process, in
// interleaved rounds of CPU time (process.cpuUsage): the cost of a change on
// the benchmark's rows, measured where both see the same machine state.
//
//   git worktree add /tmp/kron-before <commit> && ln -s $PWD/node_modules /tmp/kron-before/
//   npx tsx bench/compare.ts /tmp/kron-before [--rows chain:8,chain:64,chain:256,puma560] [--modes relaxed,torn] [--rounds 15]
//
// Per row and mode: both trees compile the same mechanism module of their own
// checkout, warm up (20000 calls, at least 1 s), then each round times a
// batch of ~20 ms of CPU per tree, the trees' order alternating; the table
// gives the median µs per call and the ratio after / before with the spread
// of the per-round ratios (quartiles).
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Tree {
  label: string;
  root: string;
  compile: (m: unknown, o: { mode: string }) => { derivatives(t: number, x: Float64Array, dx: Float64Array): void; x0(): Float64Array };
}

const { values } = parseArgs({
  allowPositionals: true,
  options: {
    rows: { type: 'string', default: 'chain:8,chain:64,chain:256,puma560' },
    modes: { type: 'string', default: 'relaxed,torn' },
    rounds: { type: 'string', default: '15' },
  },
  args: process.argv.slice(3),
});
const beforeRoot = process.argv[2];
if (!beforeRoot) throw new Error('usage: npx tsx bench/compare.ts <before checkout> [--rows chain:8,puma560] [--modes relaxed,torn] [--rounds 15]');

async function load(label: string, root: string): Promise<Tree> {
  const { compile } = await import(pathToFileURL(resolve(root, 'src/index.ts')).href);
  return { label, root: resolve(root), compile };
}

/**
 * The model module with 'kron' resolved to this tree's own sources: tsx maps
 * 'kron' through the working directory's tsconfig, which would build the
 * before tree's model with the after tree's library (other classes).
 */
function ownCopy(root: string, model: string): string {
  const file = resolve(root, `bench/.compare-${model}.ts`); // outside mechanisms/, which the viewer bundles and the package ships
  writeFileSync(
    file,
    readFileSync(resolve(root, `mechanisms/${model}.ts`), 'utf8')
      .replaceAll("from 'kron'", "from '../src/index.ts'")
      .replaceAll("from './", "from '../mechanisms/"),
  );
  return file;
}

const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** a model's derivatives at a fixed pseudo-random state near its start */
function subject(tree: Tree, build: (p: Record<string, number>) => unknown, params: Record<string, number>, mode: string) {
  const c = tree.compile(build(params), { mode });
  const x = c.x0().map((v, i) => v + 0.1 * Math.sin(i + 1));
  const dx = new Float64Array(x.length);
  let sink = 0;
  const call = () => {
    c.derivatives(0, x, dx);
    sink += dx[dx.length - 1];
  };
  return { call, sink: () => sink };
}

/** calls in `n`, µs of CPU per call */
function batch(call: () => void, n: number): number {
  const t0 = cpuMicros();
  for (let i = 0; i < n; i++) call();
  return (cpuMicros() - t0) / n;
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const quartiles = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return [s[Math.floor(s.length / 4)], s[Math.floor((3 * s.length) / 4)]];
};

const trees = [await load('before', beforeRoot), await load('after', new URL('..', import.meta.url).pathname)];
const rounds = Number(values.rounds);
console.log(`| row | mode | µs before | µs after | after / before (quartiles) |`);
console.log('| --- | --- | ---: | ---: | --- |');
for (const row of values.rows!.split(',')) {
  const [model, n] = row.split(':');
  for (const mode of values.modes!.split(',')) {
    const subjects = await Promise.all(
      trees.map(async (t) => {
        const build = (await import(pathToFileURL(ownCopy(t.root, model)).href)).default;
        return subject(t, build, n ? { n: Number(n) } : {}, mode);
      }),
    );
    // warm-up: 20000 calls and at least a second each, so that V8 has tiered every function up
    const perCall = subjects.map((s) => {
      const t0 = performance.now();
      let calls = 0;
      while (calls < 20000 || performance.now() - t0 < 1000) {
        s.call();
        calls++;
        if (performance.now() - t0 > 30000) break;
      }
      return Math.max(1e-3, batch(s.call, 100));
    });
    const size = perCall.map((us) => Math.max(1, Math.round(20000 / us)));
    const times: number[][] = [[], []];
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? [1, 0] : [0, 1];
      for (const k of order) times[k].push(batch(subjects[k].call, size[k]));
    }
    const ratios = times[1].map((t, r) => t / times[0][r]);
    const [q1, q3] = quartiles(ratios);
    console.log(
      `| ${row} | ${mode} | ${median(times[0]).toFixed(3)} | ${median(times[1]).toFixed(3)} | ${median(ratios).toFixed(3)} (${q1.toFixed(3)}–${q3.toFixed(3)}) |`,
    );
  }
}
