// The command line's compile with V8's optimising tier held back. V8 sends a
// function to TurboFan once it has spent its interrupt budget (bytecode
// executed) a few times. A compile runs the compiler's functions a few
// hundred to a few thousand times each, once, in a process that then exits:
// TurboFan compiled many of them for a run that was nearly over, on V8's
// worker threads (`kron compile mechanisms/puma560.ts`: 0.5-0.6 s on the
// main thread, 0.6-0.8 s on the workers). With the budget 9x V8's default
// during compile() the compiler's hot loops are still optimised and the
// lukewarm rest stays in the tiers that start at once. Measured on an idle
// 2-core machine, cold `kron compile`: the PUMA 1.58-1.83 -> 1.26-1.51 s CPU
// (wall 1.00-1.14 -> 0.87-1.06 s), the humanoid 2.9-4.1 -> 2.7-3.3 s CPU;
// the relaxed chain of 256 the same within noise. The budget is V8's default
// again before the generated code first runs, so a simulation tiers up as
// before (a cached run does not compile and is not touched).
//
// Only where V8's default is known (Node 20's V8 11.3: 66 KB), since the
// flag is set back to that number, and not when the user set the budget
// (node --interrupt-budget=...). node:v8 warns that a flag changed after
// start-up may have no effect; this one is read each time a function's
// budget is renewed, and the figures above are its effect.
import { setFlagsFromString } from 'node:v8';

/** V8 11.3's --interrupt-budget (flag-definitions.h: 66 * KB) */
const DEFAULT_BUDGET = 66 * 1024;
const COMPILE_BUDGET = 600_000;

/** whether this process may raise the budget: V8 11.3, and the user left it alone */
export function patientTieringApplies(v8 = process.versions.v8, args: readonly string[] = [...process.execArgv, process.env.NODE_OPTIONS ?? '']): boolean {
  return v8.startsWith('11.3.') && !args.some((a) => a.includes('interrupt-budget'));
}

// (work, flag setter) => work's result, computed with the raised budget where patientTieringApplies
export function withPatientTiering<T>(work: () => T, set: (flags: string) => void = setFlagsFromString, applies = patientTieringApplies()): T {
  if (!applies) return work();
  set(`--interrupt-budget=${COMPILE_BUDGET}`);
  try {
    return work();
  } finally {
    set(`--interrupt-budget=${DEFAULT_BUDGET}`);
  }
}
