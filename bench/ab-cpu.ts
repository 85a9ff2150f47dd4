// bench/ab-cpu: like bench/ab.ts run, timed by process.cpuUsage (a loaded machine stretches wall time,
// much less the process's own CPU time): npx tsx bench/ab-cpu.ts a.json b.json [rounds]
import { readFileSync } from 'node:fs';
type Fn = (t: number, x: Float64Array, dx: Float64Array, u: Float64Array, p: Float64Array, w: Float64Array) => void;
const [fa, fb, roundsArg = '31'] = process.argv.slice(2);
const load = (f: string) => {
  const d = JSON.parse(readFileSync(f, 'utf8'));
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
const loops = runs.map(
  () =>
    new Function('r', 'calls', 'for (let k = 0; k < calls; k++) { r.x[0] = (k % 7) * 0.3 - 1; r.fn(0, r.x, r.dx, r.u, r.p, r.w); }') as (
      r: unknown,
      c: number,
    ) => void,
);
let seed = 7;
const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const batch = (i: number, calls: number) => {
  const r = runs[i];
  r.x.forEach((_, k) => (r.x[k] = rand() * 2 - 1));
  const c0 = process.cpuUsage();
  loops[i](r, calls);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / calls;
};
for (let k = 0; k < 20; k++) for (const i of [0, 1]) batch(i, 5000);
const times: number[][] = [[], []];
for (let k = 0; k < Number(roundsArg); k++) for (const i of [0, 1]) times[i].push(batch(i, 20000));
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
const [a, b] = times.map(med);
console.log(`a ${a.toFixed(3)} µs  b ${b.toFixed(3)} µs  b/a ${(b / a).toFixed(3)}`);
