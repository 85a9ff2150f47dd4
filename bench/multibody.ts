// bench/multibody: the spatial chain (mechanisms/chain.ts) compiled torn
// (M(q) qdd = h, O(n^3)) and relaxed (the O(f) recursion), as a Markdown table.
// Run: npx tsx bench/multibody.ts [maxN]   (default 64)
//   compile   wall time of compile()
//   ops       report.ops per evaluation of the derivatives (parameters folded)
//   ops/body  (mul + add + div + fn) / n
import { compile, type Mode } from '../src/compile.ts';
import build from '../mechanisms/chain.ts';
import { BATCHES, BATCH_MS, microsPerEval } from '../src/bench/timing.ts';

const maxN = Number(process.argv[2] ?? 64);
const sizes: number[] = [];
for (let n = 1; n <= maxN; n *= 2) sizes.push(n);

const rows: string[] = [];
for (const n of sizes) {
  for (const mode of ['torn', 'relaxed'] as Mode[]) {
    const t0 = performance.now();
    const c = compile(build({ n }), { mode });
    const ms = performance.now() - t0;
    const { mul, add, div, fn } = c.report.ops;
    const total = mul + add + div + fn;
    const us = microsPerEval(c, n * 2 + (mode === 'torn' ? 0 : 1));
    rows.push(
      `| ${n} | ${mode} | ${c.report.equations} | ${ms.toFixed(0)} | ${mul} / ${add} / ${div} / ${fn} | ${(total / n).toFixed(0)} | ${us.toFixed(2)} |`,
    );
  }
}
console.log(
  [
    '# Spatial chain: torn vs relaxed',
    '',
    `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; µs/eval: median of ${BATCHES} batches of ~${BATCH_MS} ms.`,
    '',
    '| n | mode | equations | compile ms | ops mul / add / div / fn | ops/body | µs/eval |',
    '|---:|---|---:|---:|---|---:|---:|',
    ...rows,
  ].join('\n'),
);
