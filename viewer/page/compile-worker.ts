// The live mode's compile worker (served as worker.js, a module worker): it
// loads the model modules (models.js), builds, compiles and simulates one in
// its own thread, so the page keeps drawing and answering while a model
// compiles. It posts back the recorded run and the compiled model in its
// portable form; the page rebuilds a CompiledModel from it (new Function of
// the generated code: quick), for posing, replay and the real-time run.
import { reloadMechanisms, runLive } from './live.ts';
import type { Mode } from '../../src/compile.ts';

export interface CompileRequest {
  id: number;
  /** the page's count of model-module reloads: the worker loads models.js again when it changes */
  version: number;
  name: string;
  mode: Mode;
  stop: number;
  parameters: Record<string, number>;
}

let loaded = -1;

self.onmessage = async (e: MessageEvent<CompileRequest>) => {
  const { id, version, name, mode, stop, parameters } = e.data;
  try {
    if (version !== loaded) {
      await reloadMechanisms();
      loaded = version;
    }
    const { run, simulateMs, compiled, evaluationUs } = runLive(name, mode, stop, parameters);
    self.postMessage({ id, run, simulateMs, evaluationUs, portable: compiled.portable() });
  } catch (err) {
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
