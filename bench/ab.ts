// bench/ab: A/B timing of two generated codes of one model in one process, batches
// interleaved, so that a loaded machine slows both alike.
//   npx tsx bench/ab.ts dump <model> <n> <mode> <file.json>   generated body and arrays
//   npx tsx bench/ab.ts run <a.json> <b.json> [rounds]         median µs/eval of each, and b/a
import { readFileSync, writeFileSync } from 'node:fs';
import { compile, type Mode } from '../src/compile.ts';
import { rng } from '../src/bench/timing.ts';

interface Dump {
  body: string;
  states: number;
  workspace: number;
  u: number[];
  p: number[];
  x0: number[];
}
type Fn = (t: number, x: Float64Array, dx: Float64Array, u: Float64Array, p: Float64Array, w: Float64Array) => void;

const [cmd, ...rest] = process.argv.slice(2);
if (cmd === 'dump') {
  const [model, n, mode, file] = rest;
  const build = (await import(`../mechanisms/${model}.ts`)).default;
  const c = compile(build({ n: Number(n) }), { mode: mode as Mode, chunk: Number(process.env.CHUNK ?? 200) });
  const dump: Dump = { body: c.generated.body, states: c.stateNames.length, workspace: c.w.length, u: [...c.u], p: [...c.p], x0: [...c.x0()] };
  writeFileSync(file, JSON.stringify(dump));
} else {
  const [fa, fb, roundsArg = '15'] = rest;
  const load = (f: string) => {
    const d = JSON.parse(readFileSync(f, 'utf8')) as Dump;
    const fn = new Function('fail', d.body)(() => {
      throw new Error('fail');
    }) as Fn;
    return {
      fn,
      x: Float64Array.from(d.x0),
      dx: new Float64Array(d.states),
      u: Float64Array.from(d.u),
      p: Float64Array.from(d.p),
      w: new Float64Array(d.workspace),
    };
  };
  const runs = [load(fa), load(fb)];
  const rand = rng(7);
  let sink = 0;
  // one loop per code (its own call site: a shared one would favour whichever V8 saw first)
  const loops = runs.map(
    () => new Function('r', 'calls', 'for (let k = 0; k < calls; k++) r.fn(0, r.x, r.dx, r.u, r.p, r.w);') as (r: unknown, calls: number) => void,
  );
  const batch = (r: (typeof runs)[0], calls: number) => {
    r.x.forEach((_, i) => (r.x[i] = rand() * 2 - 1));
    const t0 = performance.now();
    loops[runs.indexOf(r)](r, calls);
    sink += r.dx[0];
    return ((performance.now() - t0) * 1000) / calls;
  };
  for (const r of runs) for (let k = 0; k < 30; k++) batch(r, 2000); // warm-up
  const calls = runs.map((r) => Math.max(200, Math.round(20000 / batch(r, 2000))));
  const times: number[][] = [[], []];
  for (let k = 0; k < Number(roundsArg); k++) for (const i of [0, 1]) times[i].push(batch(runs[i], calls[i]));
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const [a, b] = times.map(median);
  console.log(`a ${a.toFixed(3)} µs  b ${b.toFixed(3)} µs  b/a ${(b / a).toFixed(3)}${sink === 1e308 ? ' ' : ''}`);
}
