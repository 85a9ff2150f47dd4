// The page's side of the compile worker (compile-worker.ts): a live run
// compiled and simulated off the page's thread. Where a module worker cannot
// start (an old browser), the run happens in the page as before.
import { CompiledModel, type PortableModel } from '../../src/codegen/compiled.ts';
import type { Mode } from '../../src/compile.ts';
import type { PlaybackRun } from '../../src/io/types.ts';
import type { CompileRequest } from './compile-worker.ts';
import { type LiveRun, runLive } from './live.ts';

type Reply = { id: number; error?: string; run: PlaybackRun; simulateMs: number; evaluationUs: number; portable: PortableModel };

let worker: Worker | undefined;
let failed = false;
let next = 0;
const waiting = new Map<number, { ok: (r: Reply) => void; fail: (e: Error) => void }>();

function start(): Worker | undefined {
  if (worker || failed) return worker;
  try {
    worker = new Worker(new URL('worker.js', location.href), { type: 'module' });
    worker.onmessage = (e: MessageEvent<Reply>) => {
      const w = waiting.get(e.data.id);
      waiting.delete(e.data.id);
      if (e.data.error) w?.fail(new Error(e.data.error));
      else w?.ok(e.data);
    };
    // a worker that cannot load (no worker.js, a syntax the browser lacks): runs go to the page from now on
    worker.onerror = (e) => {
      failed = true;
      worker = undefined;
      for (const w of waiting.values()) w.fail(new Error(`the compile worker failed: ${e.message}`));
      waiting.clear();
    };
  } catch {
    failed = true;
  }
  return worker;
}

/** compile and simulate a live model in the worker (`version`: the page's model-module reloads); in the page without one */
export async function runLiveOffThread(request: Omit<CompileRequest, 'id'>): Promise<LiveRun & { inWorker: boolean }> {
  const w = start();
  if (!w) return { ...runLive(request.name, request.mode as Mode, request.stop, request.parameters), inWorker: false };
  const id = next++;
  const reply = await new Promise<Reply>((ok, fail) => {
    waiting.set(id, { ok, fail });
    w.postMessage({ ...request, id });
  });
  return { run: reply.run, simulateMs: reply.simulateMs, evaluationUs: reply.evaluationUs, compiled: new CompiledModel(reply.portable), inWorker: true };
}
