// bench/compile-time's comparison of a templated compile with the flat one
// (compile option templates: false, codegen/templates.ts) on one case: the
// size of the generated function body of each (the module's code without
// its layout, whose names grow with the instances either way), the flat
// compile's CPU, and the time per evaluation of derivatives() of each, in
// interleaved rounds of CPU time (process.cpuUsage), the median round kept.
import type { CompiledModel } from '../src/codegen/compiled.ts';

/** what --flat adds to a case's sample */
export interface FlatComparison {
  /** the templated compile's function body (generated.body), KB */
  bodyKB: number;
  /** the flat compile's, KB */
  flatBodyKB: number;
  /** the flat compile's generated module (source()), KB */
  flatSourceKB: number;
  /** compile() flat, CPU s (after the templated compiles, in the same process: warm) */
  flatCompileCpu: number;
  /** time per derivatives() evaluation, CPU µs: templated, flat (median of the rounds) */
  evalUs: number;
  flatEvalUs: number;
  /** report.templates.used and its reason */
  used: boolean;
  reason: string;
}

const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};

/** CPU µs per evaluation of each model, rounds interleaved (a burst of load spreads over both) */
function evaluationTimes(models: readonly CompiledModel[], rounds = 7, roundCpu = 0.15): number[] {
  const runs = models.map((m) => {
    const state = m.createState();
    const x = Float64Array.from(m.x0(), (v, i) => v + 0.05 * Math.sin(i + 1));
    const dx = new Float64Array(x.length);
    return () => state.derivatives(0, x, dx);
  });
  // warmed up first: V8 optimises a long chain's functions only after a thousand calls or more
  // (the first 2000 evaluations of chain:64 average 20x the later ones)
  for (const run of runs) for (let t0 = cpu(), k = 0; k < 3000 || cpu() - t0 < 0.3; k++) run();
  // evaluations per round: about roundCpu of the slower model
  let count = Infinity;
  for (const run of runs) {
    const t0 = cpu();
    let k = 0;
    while (cpu() - t0 < roundCpu / 3) (run(), k++);
    count = Math.min(count, 3 * k);
  }
  const times = models.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    runs.forEach((run, m) => {
      const t0 = cpu();
      for (let k = 0; k < count; k++) run();
      times[m].push(((cpu() - t0) / count) * 1e6);
    });
  }
  return times.map((t) => [...t].sort((a, b) => a - b)[(t.length - 1) >> 1]);
}

/** the templated compile against a flat compile of the same model (built anew by `build`) */
export function compareFlat(templated: CompiledModel, compileFlat: () => CompiledModel): FlatComparison {
  const t0 = cpu();
  const flat = compileFlat();
  const flatCompileCpu = cpu() - t0;
  const [evalUs, flatEvalUs] = evaluationTimes([templated, flat]);
  const report = templated.report.templates;
  return {
    bodyKB: templated.generated.body.length / 1024,
    flatBodyKB: flat.generated.body.length / 1024,
    flatSourceKB: flat.source().length / 1024,
    flatCompileCpu,
    evalUs,
    flatEvalUs,
    used: report?.used ?? false,
    reason: report?.reason ?? '',
  };
}
