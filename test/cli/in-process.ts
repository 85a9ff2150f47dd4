// The kron command run in this process through main(argv, io): what a test of a
// command's output and exit code needs, without the ~1 s of CPU a child process
// spends starting Node and tsx. Tests of the process itself (the exit code the
// shell sees, a closed pipe, signals) spawn bin/kron.mjs instead.
import { main } from '../../src/cli/main.ts';

export interface KronRun {
  /** the exit code main() returns, which bin/kron.mjs hands to the process */
  status: number;
  stdout: string;
  stderr: string;
}

/** kron <argv> in this process, its stdout and stderr captured */
export async function kronInProcess(...argv: string[]): Promise<KronRun> {
  let stdout = '',
    stderr = '';
  const status = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { status, stdout, stderr };
}
