import { runCase } from './bench/fuzz/check.ts';
import { generate } from './bench/fuzz/generate.ts';
const t0 = process.cpuUsage();
const out: string[] = [];
const [a, b] = process.argv.slice(2).map(Number);
for (let s = a; s <= b; s++) { const r = runCase(s, generate(s, { small: true, family: 'floating' })); out.push(`${s}:${r.cls ?? 'FAIL ' + r.failure?.kind + ' ' + r.failure?.detail}:${r.shape}:${r.features}`); }
const t = process.cpuUsage(t0);
console.log(out.join('\n')); console.log('cpu s', (t.user + t.system) / 1e6);
