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
// The main thread writes integers into shared memory (SLOT, user-code.ts),
// nothing else (a controller call costs three stores): the phase's generation and limit, and
// for calls a counter and an in-call flag. The watchdog samples them every
// 50 ms; a phase or one call older than its limit is reported to the main
// thread first (a message: a thread that is only waiting answers it at
// once), and stopped with terminateExecution when no answer comes within
// half a second. The message is handled once the busy task is unwound: the
// main thread then prints the typed error and exits.
import { Worker } from 'node:worker_threads';
import { type Overdue, SLOT } from './user-code.ts';

/** the thread's code: plain CommonJS, so that it starts without the TypeScript loader (~30 ms) */
const WATCHDOG = `
const { workerData, parentPort } = require('node:worker_threads');
const f = new Int32Array(workerData);
// connected only to stop the main thread: a session open all along would keep the process alive
function terminate() {
  try {
    const { Session } = require('node:inspector');
    const session = new Session();
    session.connectToMainThread();
    // disconnected at once (the command is on its way): Node waits for a connected session at exit ("Waiting for the debugger to disconnect")
    session.post('Runtime.terminateExecution');
    session.disconnect();
  } catch {
    process.kill(process.pid, 'SIGKILL'); // a Node built without the inspector
  }
}
let generation = -1, phaseSince = Date.now(), calls = -1, callSince = Date.now();
setInterval(() => {
  const now = Date.now();
  if (f[${SLOT.generation}] !== generation) (generation = f[${SLOT.generation}]), (phaseSince = now);
  if (f[${SLOT.inCall}] === 0 || f[${SLOT.calls}] !== calls) (calls = f[${SLOT.calls}]), (callSince = now);
  const kind = f[${SLOT.phase}] === 1 && now - phaseSince > f[${SLOT.phaseLimitMs}] ? 1 : f[${SLOT.inCall}] === 1 && now - callSince > f[${SLOT.callLimitMs}] ? 2 : 0;
  if (kind === 0) return;
  const id = kind === 1 ? generation : calls;
  Atomics.store(f, ${SLOT.answered}, 0);
  parentPort.postMessage({ kind, id });
  if (Atomics.wait(f, ${SLOT.answered}, 0, 500) === 'timed-out') {
    Atomics.store(f, ${SLOT.stopped}, kind);
    Atomics.store(f, ${SLOT.stoppedId}, id);
    terminate();
  }
  // answered: the main thread decides (a phase that ended meanwhile goes on)
  phaseSince = callSince = Date.now();
}, 50);
`;

export interface Watchdog {
  /** the shared integers (SLOT) */
  readonly slots: Int32Array;
  /** resolves once the thread runs (it needs nothing of the main thread to start: a main thread busy at once is still watched) */
  readonly ready: Promise<void>;
}

// (what to do when a phase or call is over its limit) => the watchdog, running
export function startWatchdog(onOverdue: (late: Overdue) => void): Watchdog {
  const slots = new Int32Array(new SharedArrayBuffer(10 * Int32Array.BYTES_PER_ELEMENT));
  const worker = new Worker(WATCHDOG, { eval: true, workerData: slots.buffer, stdout: false, stderr: false });
  worker.on('message', (late: Overdue) => {
    Atomics.store(slots, SLOT.answered, 1);
    Atomics.notify(slots, SLOT.answered);
    onOverdue(late);
  });
  worker.on('error', (e) =>
    process.stderr.write(`warning: the watchdog of the time limits stopped (${e.message}): --import-timeout and --call-timeout are not enforced\n`),
  );
  // once it runs (and after the listeners, which ref it again), it never keeps the process alive: an unsettled await still ends it
  const ready = new Promise<void>((resolve) => worker.once('online', () => (worker.unref(), resolve())));
  return { slots, ready };
}
