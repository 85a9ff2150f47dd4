// A fuzz worker: runs the cases of the seeds it is given and posts back
// their results (and, with verbose, the listing of each mechanism).
// Why workers: the expression DAG of src/expr/node.ts interns every node in a
// process-wide table that is never cleared, so one process that compiles
// hundreds of mechanisms runs out of memory (4 GB after a few hundred cases);
// each worker has its own module instance, table and heap, and exits after
// its batch. Two workers also use both cores of the machine.
//
// Before each case it posts the seed it starts (main.ts stops a worker that
// overruns its timeout and names that seed); an exception of the fuzzer's
// own code (the generator, the oracles) is that case's `crash`, not the end
// of the batch (fuzz seed 7000000 + 1012: the generator's axis-angle check
// threw, and the run of 1500 cases was lost).
import { parentPort, workerData } from 'node:worker_threads';
import { type CaseResult, runCase } from './check.ts';
import { type Family, generate } from './generate.ts';
import { type MechanismSpec, describeSpec } from './spec.ts';

export interface WorkerTask {
  seeds: readonly number[];
  verbose: boolean;
  small: boolean;
  family: Family;
}

export type WorkerMessage = { started: number } | { result: CaseResult; listing?: string };

const describeError = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message.split('\n')[0].slice(0, 300)}` : String(e));

// (seed) => its result, whatever the fuzzer's own code throws; `make` is the generator (tests give one that throws)
export function safeCase(seed: number, task: Omit<WorkerTask, 'seeds'>, make = generate): { result: CaseResult; spec?: MechanismSpec } {
  let spec: MechanismSpec;
  try {
    spec = make(seed, { small: task.small, family: task.family });
  } catch (e) {
    return { result: { seed, shape: '(the generator failed)', failure: { kind: 'crash', detail: `generator: ${describeError(e)}` } } };
  }
  try {
    return { result: runCase(seed, spec), spec };
  } catch (e) {
    return { result: { seed, shape: spec.shape, failure: { kind: 'crash', detail: `the fuzzer's check (oracle) threw: ${describeError(e)}` } }, spec };
  }
}

if (parentPort) {
  const task = workerData as WorkerTask;
  for (const seed of task.seeds) {
    parentPort.postMessage({ started: seed } satisfies WorkerMessage);
    const { result, spec } = safeCase(seed, task);
    parentPort.postMessage({ result, listing: task.verbose && spec ? describeSpec(spec) : undefined } satisfies WorkerMessage);
  }
}
