// kron simulate's output. CSV streams: samples are formatted block by block
// as the run computes them, to stdout or to --out, in constant memory for
// runs of any length. JSON (the viewer's { model, time, signals, scene,
// poses, ... }) holds every sample of a signal together: the run is kept in
// memory (up to MAX_RESULT_BYTES, a typed error beyond) and written in
// pieces. --out is written to a temporary file and renamed over the target
// when complete (node/output-file.ts): a failed run, Ctrl-C, SIGTERM or a
// full disk leave the previous file as it was.
import { extname, resolve } from 'node:path';
import type { CompiledModel } from '../codegen/compiled.ts';
import type { Model } from '../model/index.ts';
import { type RunStats, type SampleBlock, type SimulateOptions, simulateBlocks } from '../sim/simulate.ts';
import { csvHeader, csvRows } from '../sim/result.ts';
import { OutputFile } from '../node/output-file.ts';
import { onInterrupt, yieldToSignals } from './interrupt.ts';
import { jsonChunks } from './json-chunks.ts';
import type { Io } from './io.ts';

/** samples in a block of the CSV stream */
const BLOCK = 1024;
/** ms between two turns of the event loop, which runs Ctrl-C's handler (a turn per block cost 5% of a pendulum's run) */
const TURN_MS = 50;

/** what was written */
export interface Written {
  readonly samples: number;
  readonly signals: number;
  readonly stats: RunStats;
}

// (compiled model, options, --out or stdout) => the run's CSV written as it is computed
export async function writeCSV(compiled: CompiledModel, options: SimulateOptions, out: string | undefined, io: Io): Promise<Written> {
  const written = { samples: 0, signals: 0, stats: {} as RunStats };
  function* pieces(blocks: Generator<SampleBlock, RunStats>): Generator<string> {
    let next = blocks.next();
    if (!next.done) ((written.signals = next.value.names.length), yield csvHeader(next.value.names));
    for (; !next.done; next = blocks.next()) {
      yield csvRows(next.value.time, next.value.columns, 0, next.value.length);
      written.samples += next.value.length;
    }
    written.stats = next.value;
  }
  await writePieces(pieces(simulateBlocks(compiled, options, BLOCK)), out, io);
  return written;
}

// (model, compiled model, options, --out ending in .json, model file) => the run with the viewer's scene and poses (mechanisms)
export async function writeJSON(model: Model, compiled: CompiledModel, options: SimulateOptions, out: string, file: string, io: Io): Promise<Written> {
  // the scene and poses (gl-matrix) only for a JSON result: a CSV run should not pay for loading them
  const { simulatePlayback } = await import('../io/playback.ts');
  const { result, playback } = simulatePlayback(model, compiled, options);
  // a URDF robot's run names its file: the viewer reads it to pose the robot
  const kind = { '.urdf': 'urdf', '.xml': 'mjcf' }[extname(file).toLowerCase()];
  const source = playback && kind ? { source: { [kind]: resolve(file) } } : {};
  const signals = Object.fromEntries(result.names.map((n, i) => [n, result.columns[i]]));
  const { iterations, substitutions, events, integration } = result;
  // a contact run names its friction law (--friction)
  const contact = options.contact && { contact: { friction: options.contact.friction } };
  const data = { model: compiled.report.model, time: result.time, signals, iterations, substitutions, events, ...contact, ...playback, ...source };
  await writePieces([...jsonChunks(data), '\n'], out, io);
  return { samples: result.length, signals: result.names.length, stats: { integration, iterations, substitutions, events } };
}

/**
 * Writes the pieces to the file (renamed into place at the end) or to stdout,
 * giving the event loop a turn every 50 ms: Ctrl-C and SIGTERM then remove
 * the temporary file, say what was kept and exit with 130 or 143.
 */
async function writePieces(pieces: Iterable<string>, out: string | undefined, io: Io): Promise<void> {
  const file = out === undefined ? undefined : OutputFile.create(out);
  const kept = !file ? 'the CSV on stdout is incomplete' : file.existed ? `${out} was left as it was` : `${out} was not written`;
  const dispose = onInterrupt(io, () => (file?.discard(), kept));
  try {
    let turn = performance.now();
    for (const piece of pieces) {
      if (file) file.write(piece);
      else await writeStdout(io, piece);
      if (performance.now() - turn > TURN_MS) (await yieldToSignals(), (turn = performance.now()));
    }
    file?.commit();
  } catch (e) {
    file?.discard();
    throw e;
  } finally {
    dispose();
  }
}

/** a piece to stdout; a stream that asks to wait (a slow pipe) is given the time to drain */
async function writeStdout(io: Io, text: string): Promise<void> {
  const stream = io.stdout as { write(text: string): unknown; once?: (event: 'drain', f: () => void) => unknown };
  if (stream.write(text) === false && stream.once) await new Promise<void>((resolve) => stream.once!('drain', resolve));
}
