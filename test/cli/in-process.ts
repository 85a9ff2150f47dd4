// The kron command run in this process through main(argv, io): what a test of a
// command's output and exit code needs, without the ~0.5-1 s of CPU a child process
// spends starting Node and tsx and warming the compiler. Tests of the process itself
// (the exit code the shell sees, a closed pipe, signals, a cwd or environment of its
// own) spawn bin/kron.mjs instead.
import { main } from '../../src/cli/main.ts';

export interface KronRun {
  /** the exit code main() returns, which bin/kron.mjs hands to the process */
  status: number;
  stdout: string;
  stderr: string;
}

/** the captures under way: what a command writes to process.stdout/stderr goes to the newest */
const active: KronRun[] = [];
let original: { out: typeof process.stdout.write; err: typeof process.stderr.write } | undefined;

/**
 * Some commands write to process.stdout and process.stderr themselves rather than
 * through main()'s io (kron bench, parts of simulate): a child would send that to its
 * pipes, so here it goes to the run's strings too, in the order written.
 */
function capture(run: KronRun): () => void {
  if (!original) {
    original = { out: process.stdout.write, err: process.stderr.write };
    process.stdout.write = ((s: string | Uint8Array) => ((active.at(-1)!.stdout += String(s)), true)) as typeof process.stdout.write;
    process.stderr.write = ((s: string | Uint8Array) => ((active.at(-1)!.stderr += String(s)), true)) as typeof process.stderr.write;
  }
  active.push(run);
  return () => {
    active.splice(active.indexOf(run), 1);
    if (active.length === 0 && original) {
      process.stdout.write = original.out;
      process.stderr.write = original.err;
      original = undefined;
    }
  };
}

/** kron <argv> in this process, its stdout and stderr captured */
export async function kronInProcess(...argv: string[]): Promise<KronRun> {
  const run: KronRun = { status: -1, stdout: '', stderr: '' };
  const release = capture(run);
  try {
    run.status = await main(argv, { stdout: { write: (s: string) => (run.stdout += s) }, stderr: { write: (s: string) => (run.stderr += s) } });
  } finally {
    release();
  }
  return run;
}
