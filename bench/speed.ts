// bench/speed: op counts, compile time and (with --time) time per evaluation of a
// mechanism, torn and relaxed, for tuning the generated code.
// Run: npx tsx bench/speed.ts [sizes=2,4,8,16,64] [modes=torn,relaxed] [--time] [--model=chain]
//   sizes     the chain's n (other models ignore it; give one size)
//   ops/body  (mul + add + div + fn) / degrees of freedom, of derivatives()
import { compile, type Mode } from '../src/compile.ts';
import type { Model } from '../src/model/index.ts';
import { microsPerEval } from '../src/bench/timing.ts';

const args = process.argv.slice(2);
const time = args.includes('--time');
const model = args.find((a) => a.startsWith('--model='))?.slice(8) ?? 'chain';
const [sizesArg = '2,4,8,16,64', modesArg = 'torn,relaxed'] = args.filter((a) => !a.startsWith('--'));
const sizes = sizesArg.split(',').map(Number);
const modes = modesArg.split(',') as Mode[];
const build = (await import(`../mechanisms/${model}.ts`)).default as (p: { n?: number }) => Model;

console.log(`${model}, Node ${process.version}`);
console.log('| n | mode | compile ms | mul / add / div / fn | ops | ops/dof | functions |' + (time ? ' µs/eval |' : ''));
console.log('|---:|---|---:|---|---:|---:|---:|' + (time ? '---:|' : ''));
for (const n of sizes) {
  for (const mode of modes) {
    const t0 = performance.now();
    const c = compile(build({ n }), { mode });
    const ms = performance.now() - t0;
    const { mul, add, div, fn } = c.report.ops;
    const total = mul + add + div + fn;
    const dof = c.stateNames.length / 2;
    const us = time ? ` ${microsPerEval(c, n * 2 + (mode === 'torn' ? 0 : 1)).toFixed(2)} |` : '';
    console.log(
      `| ${dof} | ${mode} | ${ms.toFixed(0)} | ${mul} / ${add} / ${div} / ${fn} | ${total} | ${(total / dof).toFixed(0)} | ${c.report.functions} |${us}`,
    );
  }
}
