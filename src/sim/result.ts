// Sampled simulation results: one column per signal, typed access by name
// (S: the recorded signal names, e.g. 'j1.q' | 'j2.q' when simulate() was
// given them as literals), CSV with a header `time,<signal>,...`.
import { UsageError } from '../errors.ts';
import type { IterationStats } from '../codegen/relax-iterate.ts';
import type { SubstitutionStats } from '../codegen/substitution.ts';
import type { IntegrationStats } from './steppers/index.ts';
import type { EventCount } from './events.ts';

/** a run's samples: simulate() returns one; `get(name)` a signal's column, `toCSV()`/`toJSON()` what `kron simulate --out` writes */
export class SimulationResult<S extends string = string> {
  /** compiled with relaxIterate: per relaxing iteration, the evaluations of this run and their sweeps (mean, max) */
  iterations?: IterationStats[];
  /** compiled with tornSubstitution: per substituted loop, the evaluations of this run, their sweeps and Newton's fallbacks */
  substitutions?: SubstitutionStats[];
  /** the integrator that ran and what it cost: accepted and rejected steps, evaluations of the derivatives, Jacobians, LUs */
  integration?: IntegrationStats;
  /** a model with events (Component.when): how often each happened in this run */
  events?: EventCount[];

  constructor(
    /** the sample times, s */
    readonly time: Float64Array,
    /** the recorded signals' names, in column order */
    readonly names: readonly S[],
    /** one column of samples per name */
    readonly columns: readonly Float64Array[],
  ) {}

  /** the number of samples */
  get length(): number {
    return this.time.length;
  }

  /** the samples of one signal */
  get(name: S | 'time'): Float64Array {
    if (name === 'time') return this.time;
    const i = this.names.indexOf(name as S);
    if (i < 0) throw new UsageError(`signal ${name} was not recorded`, { hint: `recorded: ${this.names.join(', ')}; choose signals with --signals` });
    return this.columns[i];
  }

  /** the last sample of one signal */
  final(name: S | 'time'): number {
    const c = this.get(name);
    return c[c.length - 1];
  }

  /** { time: [...], signals: { name: [...] } } */
  toJSON(): {
    /** the sample times (s) */
    time: number[];
    /** each recorded signal's samples */
    signals: Record<S, number[]>;
    /** as the result's iterations */
    iterations?: IterationStats[];
    /** as the result's substitutions */
    substitutions?: SubstitutionStats[];
  } {
    const signals = Object.fromEntries(this.names.map((n, i) => [n, [...this.columns[i]]])) as Record<S, number[]>;
    return {
      time: [...this.time],
      signals,
      ...(this.iterations && { iterations: this.iterations }),
      ...(this.substitutions && { substitutions: this.substitutions }),
    };
  }

  /** the samples as CSV: a header `time,<signal>,...`, one row per sample */
  toCSV(): string {
    return [...this.csvChunks()].join('');
  }

  /**
   * The CSV text in pieces of `rows` lines, to be written as they come: the
   * whole text of a long run held at once outlives the young generation, and
   * collecting it cost more than formatting it (10001 samples of the PUMA: 58 ms
   * of mark-compact and scavenges against 40 ms of formatting).
   */
  *csvChunks(rows = 1000): Generator<string> {
    let header = csvHeader(this.names);
    for (let k = 0; k < this.time.length; k += rows) {
      yield header + csvRows(this.time, this.columns, k, Math.min(k + rows, this.time.length));
      header = '';
    }
    if (header) yield header;
  }
}

/** the CSV header of samples of these signals */
export const csvHeader = (names: readonly string[]): string => ['time', ...names].join(',') + '\n';

/** CSV lines of samples from .. to - 1: the time, then each column, numbers in their shortest round-trip form */
export function csvRows(time: Float64Array, columns: readonly Float64Array[], from: number, to: number): string {
  let text = '';
  for (let k = from; k < to; k++) {
    let row = String(time[k]);
    for (const c of columns) row += ',' + String(c[k]);
    text += row + '\n';
  }
  return text;
}
