// Human-readable compile report for the terminal.
import type { CompileReport } from '../report.ts';

export function formatReport(r: CompileReport): string {
  const lines = [
    `model ${r.model} (${r.mode})`,
    `  equations ${r.equations} after flattening, ${r.sortedEquations} after alias elimination (${r.aliasesEliminated} aliases)`,
    `  unknowns ${r.unknowns}, states ${r.states}`,
    `  ops per evaluation: ${r.ops.mul} mul, ${r.ops.add} add, ${r.ops.div} div, ${r.ops.fn} fn`,
    `  compiled in ${r.compileMs} ms into ${r.functions} functions`,
  ];
  if (r.blocks.length === 0) lines.push('  no algebraic loops');
  r.blocks.forEach((b, i) => {
    lines.push(`  loop ${i + 1}: ${b.size} ${b.linear ? 'linear' : 'non-linear'} equations torn to ${b.tearing} (${b.tearingFrom}; ${b.solver})`);
    lines.push(`    tearing variables: ${b.tearVariables.join(', ')}`);
  });
  for (const d of r.diagnostics) lines.push(`  warning: ${d}`);
  return lines.join('\n');
}
