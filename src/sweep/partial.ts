// A sweep's results as they finish: the partial file, `<out>.partial` beside
// the CSV. Its first line names the sweep (a hash of the generated code, the
// run settings, the metric module's text, the runs' spec and Kron's version);
// then one JSON line per finished run, in run order (the pool's results come
// in order: at most 8 per thread wait for an earlier one). At the end the CSV
// is made from it (its metric columns are known only when every run is in)
// and renamed into place, and the partial file removed. A sweep killed,
// interrupted or out of disk space keeps every run written: the same command
// again checks that the file holds the same sweep and goes on from the first
// run it lacks. A line cut short by a crash is dropped; another sweep's file,
// or a file Kron did not write, is refused.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readSync, truncateSync, unlinkSync, writeSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import type { CompiledModel } from '../codegen/compiled.ts';
import { writing } from '../node/output-file.ts';
import { VERSION } from '../node/package.ts';
import type { RunSettings } from './run.ts';
import type { SweepPoints } from './runs.ts';
import type { SweepResult } from './sweep.ts';
import { metricColumns, sweepHeader, sweepRow } from './csv.ts';

const KIND = 'kron sweep partial';

/** the first line of a partial file: which sweep it holds */
export interface SweepIdentity {
  readonly kind: typeof KIND;
  readonly hash: string;
  readonly runs: number;
  readonly names: readonly string[];
}

// (model compiled once, runs, settings) => what names this sweep in its partial file
export function sweepIdentity(compiled: CompiledModel, points: SweepPoints, settings: RunSettings): SweepIdentity {
  // the report holds the compile's time and cache key, which differ between compiles of the same model
  const { report: _report, ...model } = compiled.portable();
  const metric = settings.metric === undefined ? null : textOf(settings.metric);
  const text = JSON.stringify({ kron: VERSION, model, settings, metric, runs: points.describe() });
  return { kind: KIND, hash: createHash('sha256').update(text).digest('hex').slice(0, 16), runs: points.count, names: points.names };
}

/** a file's text; one that cannot be read is named by its error (loading the metric says why, in words) */
function textOf(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    return String(e);
  }
}

export class PartialSweep {
  /** runs in the file: runs 0 .. done - 1 */
  done: number;
  private fd: number | undefined;

  private constructor(
    readonly path: string,
    readonly identity: SweepIdentity,
    done: number,
    fd: number,
  ) {
    this.done = done;
    this.fd = fd;
  }

  // (path, this sweep, whether to keep the runs a file of the same sweep holds) => the file open to append to
  static open(path: string, identity: SweepIdentity, resume: boolean): PartialSweep {
    const found = existsSync(path) ? readPartial(path, identity) : undefined;
    if (found && resume) {
      writing(path, false, () => truncateSync(path, found.end)); // drops a line cut short
      return new PartialSweep(
        path,
        identity,
        found.done,
        writing(path, false, () => openSync(path, 'a')),
      );
    }
    const fd = writing(path, false, () => openSync(path, 'w'));
    writing(path, false, () => writeSync(fd, JSON.stringify(identity) + '\n'));
    return new PartialSweep(path, identity, 0, fd);
  }

  /** one more run, the next in run order */
  append(r: SweepResult): void {
    if (r.index !== this.done) throw new Error(`run ${r.index} came when run ${this.done} was due`);
    const line = Buffer.from(JSON.stringify(r, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)) + '\n');
    const fd = this.open();
    writing(this.path, false, () => {
      for (let at = 0; at < line.length;) at += writeSync(fd, line, at);
    });
    this.done++;
  }

  /** the CSV of every run, in pieces (the file is read twice: its metric columns, then the rows); counts the failed runs */
  *csv(counts: { runs: number; failed: number }): Generator<string> {
    this.close();
    const names = this.identity.names;
    const metrics = metricColumns(results(this.path));
    let text = sweepHeader(names, metrics);
    for (const r of results(this.path)) {
      text += sweepRow(names, metrics, r);
      counts.runs++;
      if (r.status === 'error') counts.failed++;
      if (text.length >= 1 << 16) (yield text, (text = ''));
    }
    yield text;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** removes the file (its CSV is written, or it was a spool) */
  remove(): void {
    this.close();
    try {
      unlinkSync(this.path);
    } catch {
      /* already gone */
    }
  }

  private open(): number {
    if (this.fd === undefined) throw new Error(`${this.path} was already closed`);
    return this.fd;
  }
}

/** the runs of a partial file, in order */
function* results(path: string): Generator<SweepResult> {
  let first = true;
  for (const { line } of lines(path)) {
    if (first) {
      first = false;
      continue;
    }
    const r = JSON.parse(line) as SweepResult & { metrics: Record<string, number | string> };
    yield { ...r, metrics: Object.fromEntries(Object.entries(r.metrics).map(([k, v]) => [k, Number(v)])) };
  }
}

/**
 * The runs a partial file of this sweep holds and where they end (undefined:
 * its first line was cut short, nothing to keep); another sweep's file or a
 * broken one is a UsageError.
 */
function readPartial(path: string, identity: SweepIdentity): { done: number; end: number } | undefined {
  const refuse = (why: string) =>
    new UsageError(`${path} ${why}`, {
      hint: `it is the partial file of --out ${path.replace(/\.partial$/, '')}: delete it to start this sweep afresh, or give another --out`,
    });
  let done = -1,
    end = 0;
  for (const { line, complete, end: after } of lines(path)) {
    let value: { kind?: unknown; hash?: unknown; index?: unknown } | undefined;
    try {
      value = JSON.parse(line) as typeof value;
    } catch {
      if (!complete) break; // the last line, cut short by a crash
      throw refuse(`is not a partial sweep file Kron wrote: line ${done + 2} is not JSON`);
    }
    if (done < 0) {
      if (value?.kind !== KIND) throw refuse('is not a partial sweep file Kron wrote (its first line does not name a sweep)');
      if (value.hash !== identity.hash)
        throw refuse(`holds another sweep (${value.hash}, not ${identity.hash}): another model, other settings, another metric or other runs`);
    } else if (value?.index !== done) {
      throw refuse(`is broken: line ${done + 2} holds run ${String(value?.index)} where run ${done} was due`);
    }
    if (!complete) break;
    done++;
    end = after;
  }
  return done < 0 ? undefined : { done, end };
}

/** the lines of a file, read a megabyte at a time; `end` is the byte after each line, a last line without its newline is not complete */
function* lines(path: string): Generator<{ line: string; complete: boolean; end: number }> {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(1 << 20);
    let rest = Buffer.alloc(0),
      offset = 0; // offset: where rest starts in the file
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      const data = rest.length ? Buffer.concat([rest, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      let from = 0;
      for (let newline = data.indexOf(10); newline >= 0; newline = data.indexOf(10, from)) {
        yield { line: data.toString('utf8', from, newline), complete: true, end: offset + newline + 1 };
        from = newline + 1;
      }
      offset += from;
      rest = Buffer.from(data.subarray(from));
    }
    if (rest.length) yield { line: rest.toString('utf8'), complete: false, end: offset + rest.length };
  } finally {
    closeSync(fd);
  }
}
