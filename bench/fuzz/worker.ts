// A fuzz worker: runs the cases of the seeds it is given and posts back
// their results (and, with verbose, the listing of each mechanism).
// Why workers: the expression DAG of src/expr/node.ts interns every node in a
// process-wide table that is never cleared, so one process that compiles
// hundreds of mechanisms runs out of memory (4 GB after a few hundred cases);
// each worker has its own module instance, table and heap, and exits after
// its batch. Two workers also use both cores of the machine.
import { parentPort, workerData } from 'node:worker_threads';
import { runCase } from './check.ts';
import { generate } from './generate.ts';
import { describeSpec } from './spec.ts';

const { seeds, verbose, small } = workerData as { seeds: number[]; verbose: boolean; small: boolean };
for (const seed of seeds) {
  const spec = generate(seed, { small });
  const result = runCase(seed, spec);
  parentPort!.postMessage({ result, listing: verbose ? describeSpec(spec) : undefined });
}
