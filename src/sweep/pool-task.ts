// The task a pool thread runs (piscina calls the default export): the first
// task of a thread rebuilds the compiled model from the portable form in
// workerData — once per thread, not per run — and every task is one run.
import { workerData } from 'node:worker_threads';
import type { PortableModel } from '../codegen/compiled.ts';
import { type RunOutcome, type RunSettings, type RunTask, type Runner, makeRunner } from './run.ts';

export interface PoolData {
  readonly model: PortableModel;
  readonly settings: RunSettings;
}

let runner: Promise<Runner> | undefined;

export default async function runTask(task: RunTask): Promise<RunOutcome> {
  const data = workerData as PoolData;
  runner ??= makeRunner(data.model, data.settings);
  return (await runner)(task);
}
