// Live mode: the model modules of mechanisms/ (and the user's), loaded from
// the server's models.js (bundled on each request, see src/cli/bundle.ts, so
// reloadMechanisms() picks up new files), compiled and simulated here with the
// same engine and playback recording as the CLI.
import type mechanismList from 'kron:mechanisms';
import * as engine from '../../src/api.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { compile, type Mode } from '../../src/compile.ts';
import { simulatePlayback } from '../../src/io/playback.ts';
import type { PlaybackRun } from '../../src/io/types.ts';
import { Frame } from '../../src/library/multibody/index.ts';
import { Model, type Component } from '../../src/model/index.ts';

export interface LiveRun {
  run: PlaybackRun;
  simulateMs: number;
  /** the compiled model of the run (kinematic posing evaluates it) */
  compiled: CompiledModel;
  /** µs per evaluation of the derivatives, in this page */
  evaluationUs: number;
}

/** evaluations are timed for this long (ms): browsers coarsen performance.now() to 0.1 ms or so */
const TIMING_MS = 20;

/** µs per evaluation of the derivatives at the start state, on a state of its own */
function timeEvaluation(compiled: CompiledModel): number {
  const state = compiled.createState();
  const x = state.x0(),
    dx = new Float64Array(x.length);
  state.derivatives(0, x, dx); // the first call settles a loop's Newton guess
  const t0 = performance.now();
  let n = 0,
    elapsed = 0;
  while (elapsed < TIMING_MS) {
    for (let i = 0; i < 100; i++) state.derivatives(0, x, dx);
    n += 100;
    elapsed = performance.now() - t0;
  }
  return (elapsed * 1000) / n;
}

const hasFrames = (c: Component): boolean => c instanceof Frame || c.children.some(hasFrames);

// models.js imports 'kron' as this global: the page's engine, so instanceof Model holds across them
(globalThis as { __kron?: unknown }).__kron = engine;

let mechanisms: typeof mechanismList = [];
let drawable: string[] | undefined;
let loads = 0;

/** fetch the model modules again (a new URL each time: the browser caches modules by URL) */
export async function reloadMechanisms(): Promise<void> {
  const url = new URL(`models.js?v=${Date.now()}-${loads++}`, location.href).href;
  const loaded = (await import(/* @vite-ignore */ url)) as { default: typeof mechanismList };
  mechanisms = loaded.default;
  drawable = undefined;
}

/** the model module of that name, as loaded last */
export function mechanismModule(name: string): (typeof mechanismList)[number]['module'] | undefined {
  return mechanisms.find((m) => m.name === name)?.module;
}

/** the loaded model modules whose default model has frames to draw (built once per load) */
export function liveMechanisms(): string[] {
  return (drawable ??= mechanisms
    .filter((m) => {
      try {
        const model = m.module.default?.({});
        return model instanceof Model && hasFrames(model);
      } catch {
        return false;
      }
    })
    .map((m) => m.name));
}

/** is there a bundled model module of that name (drawable or not: a drive train's signals replay too) */
export function isBundled(name: string): boolean {
  return mechanisms.some((m) => m.name === name);
}

/** the bundled mechanism of that name with its default parameters (or these), compiled */
export function compileLive(name: string, mode: Mode, parameters: Record<string, number> = {}): { model: Model; compiled: CompiledModel } {
  const entry = mechanisms.find((m) => m.name === name);
  if (!entry?.module.default) throw new Error(`no mechanism named ${name}`);
  const model = entry.module.default(parameters) as Model;
  return { model, compiled: compile(model, { mode }) };
}

/** compile and simulate a bundled mechanism with its default parameters (or these) */
export function runLive(name: string, mode: Mode, stop: number, parameters: Record<string, number> = {}): LiveRun {
  const { model, compiled } = compileLive(name, mode, parameters);
  const t0 = performance.now();
  const { result, playback } = simulatePlayback(model, compiled, { stop, step: 1e-3, interval: 0.01 });
  const simulateMs = Math.round(performance.now() - t0);
  return { run: { model: compiled.report.model, ...result.toJSON(), ...playback }, simulateMs, compiled, evaluationUs: timeEvaluation(compiled) };
}
