// The fuzzer's report: class counts, grey cases, failures by kind with their seeds.
import type { CaseResult } from './check.ts';

export function summarize(results: readonly CaseResult[], ms: number): string {
  const count = (f: (r: CaseResult) => boolean) => results.filter(f).length;
  const lines = [`${results.length} cases in ${(ms / 1000).toFixed(1)} s`];
  for (const cls of ['agree', 'compile-error', 'run-error'] as const) lines.push(`  ${cls.padEnd(14)} ${count((r) => r.cls === cls)}`);
  lines.push(`  ${'FAILED'.padEnd(14)} ${count((r) => !!r.failure)}`);
  lines.push(`  (grey zone of the singularity tests: ${count((r) => !!r.grey)})`);
  // the singular family (singular.ts): runs through on the reference's branch but less accurately, and stops after the energy had moved
  const inaccurate = count((r) => r.cls === 'agree' && !!r.note?.startsWith('inaccurate'));
  const late = count((r) => r.cls === 'run-error' && !!r.note?.includes('[late:'));
  const energyOnly = count((r) => r.cls === 'agree' && !!r.note?.startsWith('by energy alone'));
  if (inaccurate || late || energyOnly) lines.push(`  (runs: agree but inaccurate ${inaccurate}, agree by energy alone ${energyOnly}, stopped late ${late})`);
  const away = results.filter((r) => r.branch);
  if (away.length)
    lines.push(
      `  (agree, loop closed away from the start's assembly branch: ${away.length}, seeds ${away
        .slice(0, 8)
        .map((r) => r.seed)
        .join(', ')}${away.length > 8 ? ', ...' : ''})`,
    );
  // why the typed errors happened, grouped by their message with names and numbers blanked
  for (const cls of ['compile-error', 'run-error'] as const) {
    const why = new Map<string, number[]>();
    for (const r of results.filter((x) => x.cls === cls)) {
      const key = (r.note ?? '(no note)')
        .replace(/\([^)]*\)/g, '(..)')
        .replace(/\b[jcb]\d+\b/g, 'J')
        .replace(/-?\d[\d.e+-]*/g, '#')
        .slice(0, 110);
      why.set(key, [...(why.get(key) ?? []), r.seed]);
    }
    for (const [key, seeds] of why) lines.push(`  ${cls} x${seeds.length} (seeds ${seeds.slice(0, 4).join(', ')}${seeds.length > 4 ? ', ...' : ''}): ${key}`);
  }
  const failures = results.filter((r) => r.failure);
  const kinds = [...new Set(failures.map((r) => r.failure!.kind))];
  for (const k of kinds) lines.push(`  failures ${k}: ${count((r) => r.failure?.kind === k)}`);
  for (const r of failures) lines.push(`FAIL seed ${r.seed} [${r.shape}${r.features ? `; ${r.features}` : ''}] ${r.failure!.kind}: ${r.failure!.detail}`);
  return lines.join('\n');
}
