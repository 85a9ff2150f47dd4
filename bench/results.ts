// bench/results: what a bench script writes so that its table in
// docs/performance/ is generated, not pasted: bench/results/<name>.json with
// the date, the machine (CPU model, cores, Node, OS, load), the command that
// ran it, and the table as it is shown (cells already formatted, so the page
// says exactly what the run printed) beside the raw rows.
// scripts/bench-docs-text.ts renders these files into the pages
// (npm run docs:bench); test/docs/bench-pages.test.ts checks they agree.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release } from 'node:os';
import { join } from 'node:path';

export const RESULTS_DIR = new URL('./results/', import.meta.url);

export interface BenchColumn {
  label: string;
  /** Markdown alignment: numbers right, words left (the default) */
  align?: 'left' | 'right';
}

export interface BenchResult {
  /** the file's stem: bench/results/<name>.json */
  name: string;
  /** what ran, as one would type it (e.g. `npm run bench:drivetrain`) */
  command: string;
  /** ISO time of the end of the run */
  date: string;
  machine: { cpu: string; cores: number; node: string; os: string; load: number };
  columns: BenchColumn[];
  /** the shown table: one array of formatted cells per row, in the columns' order */
  rows: string[][];
  /** the values behind the cells, unrounded, for whoever reads the JSON */
  raw: readonly object[];
}

/** the machine as a result records it: the load is the 1-minute average at the end of the run */
export function machineNow(): BenchResult['machine'] {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    node: process.version,
    os: `${platform()} ${release()}`,
    load: Number(loadavg()[0].toFixed(1)),
  };
}

// (a finished run's table) => the path of bench/results/<name>.json, written
export function writeBenchResult(r: Omit<BenchResult, 'date' | 'machine'>, dir = RESULTS_DIR.pathname): string {
  const result: BenchResult = {
    name: r.name,
    command: r.command,
    date: new Date().toISOString(),
    machine: machineNow(),
    columns: r.columns,
    rows: r.rows,
    raw: r.raw,
  };
  for (const row of result.rows) {
    if (row.length !== result.columns.length) throw new Error(`bench result ${r.name}: a row of ${row.length} cells for ${result.columns.length} columns`);
  }
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${r.name}.json`);
  writeFileSync(file, JSON.stringify(result, null, 1) + '\n');
  return file;
}
