// bench/compile-time: CPU time and peak memory of compiling the chain
// (mechanisms/chain.ts), each size in a process of its own so that the peak
// RSS is that compile's and nothing warms up the next: what `kron compile`
// pays, split into the process start (node, tsx, importing the compiler),
// building the model, and compile() itself. CPU time (process.cpuUsage), not
// wall time: the machines this runs on are shared.
// Run: npx tsx bench/compile-time.ts [--sizes 64,256,1024] [--mode relaxed] [--rounds 1] [--json]
//   (npm run bench:compile). Rounds run the sizes in turn, not one size
//   repeatedly, so that a burst of load on the machine spreads over all.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

interface Sample {
  n: number;
  /** the process up to the model's build: node, tsx, the compiler's modules */
  startCpu: number;
  buildCpu: number;
  compileCpu: number;
  /** the whole process: start, build and compile */
  processCpu: number;
  /** the process's peak resident set, MB */
  peakRssMB: number;
  /** expression nodes made by compile() (expr/node.ts) */
  nodes: number;
}

const cpu = (c: NodeJS.CpuUsage = process.cpuUsage()) => (c.user + c.system) / 1e6;

/** one compile in this process, printed as JSON */
async function child(n: number, mode: string): Promise<void> {
  const { compile } = await import('../src/compile.ts');
  const { exprCount } = await import('../src/expr/index.ts');
  const build = (await import('../mechanisms/chain.ts')).default;
  const t0 = cpu();
  const model = build({ n });
  const t1 = cpu(), made = exprCount();
  compile(model, { mode: mode as 'relaxed' });
  const t2 = cpu();
  const sample: Sample = { n, startCpu: t0, buildCpu: t1 - t0, compileCpu: t2 - t1, processCpu: t2, peakRssMB: process.resourceUsage().maxRSS / 1024, nodes: exprCount() - made };
  console.log(JSON.stringify(sample));
}

function parent(sizes: number[], mode: string, rounds: number, json: boolean): void {
  const self = fileURLToPath(import.meta.url);
  const samples: Sample[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const n of sizes) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', self, '--child', String(n), '--mode', mode], { encoding: 'utf8', maxBuffer: 1 << 24 });
      samples.push(JSON.parse(out.trim().split('\n').pop()!) as Sample);
    }
  }
  if (json) {
    console.log(JSON.stringify({ mode, samples }, null, 2));
    return;
  }
  const f = (x: number) => x.toFixed(2).padStart(8);
  console.log(`chain, mode ${mode}: CPU seconds, peak RSS MB (one process per row)`);
  console.log('       n    start    build  compile  process  peakRSS    nodes  nodes/body');
  for (const s of samples) {
    console.log(`${String(s.n).padStart(8)} ${f(s.startCpu)} ${f(s.buildCpu)} ${f(s.compileCpu)} ${f(s.processCpu)} ${s.peakRssMB.toFixed(0).padStart(8)} ${String(s.nodes).padStart(8)} ${(s.nodes / s.n).toFixed(0).padStart(11)}`);
  }
}

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '64,256,1024' },
    mode: { type: 'string', default: 'relaxed' },
    rounds: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
    child: { type: 'string' },
  },
});
if (values.child !== undefined) await child(Number(values.child), values.mode);
else parent(values.sizes.split(',').map(Number), values.mode, Number(values.rounds), values.json);
