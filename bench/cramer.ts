// bench/cramer: operations of the symbolic Cramer solution (structure/cramer.ts) against the
// runtime dense solvers the generated code calls otherwise (codegen/ops.ts: luOps, choleskyOps),
// as a Markdown table. Run: npx tsx bench/cramer.ts
//
// Glossary
//   dense        every entry of H and c its own symbol
//   symmetric    dense with H_ij and H_ji the same symbol (what Cholesky is for)
//   tridiagonal  H_ij a symbol for |i - j| <= 1, else 0; c dense
//   total        mul + add + div (+ sqrt for Cholesky); LU and Cholesky are the dense runtime
//                solvers whatever the pattern, and their pivot search, swaps and loops are not counted
//   break-even   the cost of a division, in multiplications, above which Cramer is cheaper than LU
//   temps        subdeterminants bound to temporaries (each computed once)
//   build        median time to build the symbolic solution, both expansion strategies included

import { type Expr, ZERO } from '../src/expr/index.ts';
import { Model } from '../src/model/index.ts';
import { type OpCounts, choleskyOps, luOps } from '../src/codegen/ops.ts';
import { cramerSolve, expressionOps } from '../src/structure/cramer.ts';

const model = new Model('bench');
let systems = 0;

type Pattern = (i: number, j: number) => boolean;

const PATTERNS: [string, Pattern, boolean][] = [
  ['dense', () => true, false],
  ['symmetric', () => true, true],
  ['tridiagonal', (i, j) => Math.abs(i - j) <= 1, false],
];

// (k, pattern, symmetric) => H, c with a fresh symbol per structurally nonzero entry
function system(k: number, pattern: Pattern, symmetric: boolean): { H: Expr[]; c: Expr[] } {
  const tag = `s${systems++}_`;
  const H: Expr[] = new Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      if (symmetric && j < i) H[i * k + j] = H[j * k + i];
      else H[i * k + j] = pattern(i, j) ? model.variable(`${tag}h${i}_${j}`) : ZERO;
    }
  }
  const c = Array.from({ length: k }, (_, i) => model.variable(`${tag}c${i}`));
  return { H, c };
}

const total = (o: OpCounts) => o.mul + o.add + o.div + o.fn;
const triple = (o: OpCounts) => `${o.mul}/${o.add}/${o.div}`;

function breakEven(cr: OpCounts, lu: OpCounts): string {
  const saved = lu.div - cr.div,
    extra = cr.mul + cr.add - lu.mul - lu.add;
  if (extra <= 0) return 'always';
  return saved > 0 ? (extra / saved).toFixed(1) : 'never';
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

const lines = [
  '| pattern | k | Cramer mul/add/div | total | temps | LU mul/add/div | total | Cholesky mul/add/div/sqrt | total | break-even div | build ms |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];
for (const [name, pattern, symmetric] of PATTERNS) {
  for (let k = 1; k <= 6; k++) {
    const { H, c } = system(k, pattern, symmetric);
    const times: number[] = [];
    let r = cramerSolve(H, c, k, 'b.');
    for (let rep = 0; rep < 5; rep++) {
      const t0 = performance.now();
      r = cramerSolve(H, c, k, 'b.');
      times.push(performance.now() - t0);
    }
    const cr = expressionOps([...r.assigns.map((a) => a.expr), ...r.z]);
    const lu = luOps(k),
      ch = choleskyOps(k);
    lines.push(
      `| ${name} | ${k} | ${triple(cr)} | ${total(cr)} | ${r.assigns.length} | ${triple(lu)} | ${total(lu)} | ` +
        `${triple(ch)}/${ch.fn} | ${total(ch)} | ${breakEven(cr, lu)} | ${median(times).toFixed(2)} |`,
    );
  }
}
console.log(lines.join('\n'));
