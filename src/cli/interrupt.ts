// Ctrl-C (SIGINT) and SIGTERM while a command writes its output: the
// handler leaves the output as the command says (simulate: the previous file
// kept and the temporary one removed; sweep: the finished runs in the partial
// file, to resume from), says so on stderr and exits with 128 + the signal's
// number, as a shell reports a process a signal ended. Node runs signal
// handlers on the event loop only: a command that computes synchronously
// must give the loop a turn now and then (simulate's writer does, between
// blocks of samples; a sweep waits on its threads anyway).
import { constants } from 'node:os';
import { discardPending } from '../node/output-file.ts';
import { exitAsCommanded } from '../node/user-code.ts';
import type { Io } from './io.ts';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

// (streams, what the output is left as, given the signal) => removes the handlers again
export function onInterrupt(io: Io, left: () => string): () => void {
  const handler = (signal: NodeJS.Signals) => {
    let said: string;
    try {
      said = left();
    } catch (e) {
      said = `and ${e instanceof Error ? e.message : String(e)}`;
    }
    discardPending(); // any temporary file the command did not name
    io.stderr.write(`interrupted by ${signal}: ${said}\n`);
    exitAsCommanded(128 + constants.signals[signal]);
  };
  for (const s of SIGNALS) process.on(s, handler);
  return () => {
    for (const s of SIGNALS) process.off(s, handler);
  };
}

/** a turn of the event loop, for the signal handlers above (a few microseconds) */
export const yieldToSignals = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
