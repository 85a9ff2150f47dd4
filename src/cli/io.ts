// Where the CLI writes: the process's streams, or strings collected by a test.
import type { WriteStream } from 'node:tty';

export interface Io {
  stdout: { write(text: string): unknown };
  /** a TTY stream (isTTY true) gets the progress bar of long simulations */
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

export const processIo = (): Io => ({ stdout: process.stdout, stderr: process.stderr });

/** the terminal stream behind io.stderr, when it is one */
export const terminal = (io: Io): WriteStream | undefined => (io.stderr.isTTY ? (io.stderr as WriteStream) : undefined);

/** node:util parseArgs rejects unknown options and missing values with these */
export const isParseArgsError = (e: unknown): e is TypeError => e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS');
