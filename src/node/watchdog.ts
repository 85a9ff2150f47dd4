// A thread that watches the main thread while the user's code runs in it
// (user-code.ts): a model module's import and a controller's calls have a
// time limit, and an endless loop in them blocks the thread that would
// notice. Only V8 can stop a busy thread (TerminateExecution); for code
// Kron does not start itself (a module's top level, evaluated by Node's
// loader) and for calls too frequent to start one of `vm`'s timers each
// (a controller: 4 calls per RK4 step, 28-90 us per vm call against ~1 us),
// the watchdog asks V8 through the inspector protocol, connected to the main
// thread (Runtime.terminateExecution), which reaches a busy thread.
//
// The main thread writes integers into shared memory, nothing else (a
// controller call costs three stores): the phase's generation and limit, and
// for calls a counter and an in-call flag. The watchdog samples them every
// 50 ms; a phase or one call older than its limit is reported to the main
// thread first (a message: a thread that is only waiting answers it at
// once), and stopped with terminateExecution when no answer comes within
// half a second. The message is handled once the busy task is unwound: the
// main thread then prints the typed error and exits.
import { Worker } from 'node:worker_threads';

/** the shared integers, by index */
export const SLOT = {
  /** incremented at every phase entered */
  generation: 0,
  /** 0 nothing watched, 1 a whole phase (an import), 2 calls (each timed alone) */
  kind: 1,
  /** the limit of the phase or of one call, in ms */
  limitMs: 2,
  /** calls started */
  calls: 3,
  /** 1 while a call runs */
  inCall: 4,
  /** the main thread's answer to a report (1) */
  answered: 5,
} as const;

/** the thread's code: plain CommonJS, so that it starts without the TypeScript loader (~30 ms) */
const WATCHDOG = `
const { workerData, parentPort } = require('node:worker_threads');
const f = new Int32Array(workerData);
let session;
try {
  const { Session } = require('node:inspector');
  session = new Session();
  session.connectToMainThread();
} catch {
  session = undefined; // a Node built without the inspector: the process is killed instead
}
let generation = -1, calls = -1, since = Date.now();
setInterval(() => {
  const now = Date.now();
  if (f[${SLOT.generation}] !== generation) (generation = f[${SLOT.generation}]), (calls = -1), (since = now);
  if (f[${SLOT.kind}] === 2 && (f[${SLOT.inCall}] === 0 || f[${SLOT.calls}] !== calls)) (calls = f[${SLOT.calls}]), (since = now);
  if (f[${SLOT.kind}] === 0 || now - since <= f[${SLOT.limitMs}]) return;
  Atomics.store(f, ${SLOT.answered}, 0);
  parentPort.postMessage(generation);
  if (Atomics.wait(f, ${SLOT.answered}, 0, 500) === 'timed-out') {
    if (session) session.post('Runtime.terminateExecution');
    else process.kill(process.pid, 'SIGKILL');
  }
  since = Date.now(); // answered: the main thread decides (a phase that ended meanwhile goes on)
}, 50);
`;

export interface Watchdog {
  /** the shared integers (SLOT) */
  readonly slots: Int32Array;
}

// (what to do when a phase or call is over its limit: the generation reported) => the watchdog, running
export function startWatchdog(onOverdue: (generation: number) => void): Watchdog {
  const slots = new Int32Array(new SharedArrayBuffer(8 * Int32Array.BYTES_PER_ELEMENT));
  const worker = new Worker(WATCHDOG, { eval: true, workerData: slots.buffer, stdout: false, stderr: false });
  worker.unref(); // it never keeps the process alive: an unsettled await still ends it (user-code.ts explains)
  worker.on('message', (generation: number) => {
    Atomics.store(slots, SLOT.answered, 1);
    Atomics.notify(slots, SLOT.answered);
    onOverdue(generation);
  });
  return { slots };
}
