// A compile cache entry read back (compile-cache.ts) is checked before it is
// used: a file cut short, edited by hand or written by a broken build would
// otherwise fail deep inside the run (an internal error on every run until
// the file was deleted). What a CompiledModel reads of the data when it is
// made and when it runs is checked here, field by field; the first field
// that is wrong is the reason the entry is compiled again and replaced.
import type { CompiledData } from '../codegen/compiled-data.ts';
import type { Reads } from './reads.ts';

type Check = (v: unknown) => boolean;
/** an object's fields, each with its check or the shape of an object */
interface Shape {
  readonly [field: string]: Check | Shape;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const string: Check = (v) => typeof v === 'string';
const number: Check = (v) => typeof v === 'number';
const count: Check = (v) => Number.isInteger(v) && (v as number) >= 0;
const arrayOf =
  (item: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(item);
const recordOf =
  (item: Check): Check =>
  (v) =>
    isObject(v) && Object.values(v).every(item);
const optional =
  (check: Check): Check =>
  (v) =>
    v === undefined || check(v);
const nullable =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);
const oneOf =
  (...values: unknown[]): Check =>
  (v) =>
    values.includes(v);

/** the fields of an object, each with its check: the name of the first that fails, or undefined */
function firstWrong(value: unknown, fields: Shape, at: string): string | undefined {
  if (!isObject(value)) return at || 'the entry';
  for (const [name, check] of Object.entries(fields)) {
    const path = at ? `${at}.${name}` : name;
    const wrong = typeof check === 'function' ? (check(value[name]) ? undefined : path) : firstWrong(value[name], check, path);
    if (wrong) return wrong;
  }
  return undefined;
}

const SOURCE: Check = (v) =>
  Array.isArray(v) &&
  v.length === 2 &&
  string(v[0]) &&
  firstWrong(v[1], { from: oneOf('time', 'x', 'u', 'w', 'p', 'value'), index: count, sign: number, offset: number }, 's') === undefined;

const DATA = {
  generated: {
    body: string,
    functions: count,
    ops: isObject,
    outputOps: isObject,
    layout: {
      states: arrayOf(string),
      inputs: arrayOf(string),
      parameters: arrayOf(string),
      workspace: arrayOf(string),
      derivativeSlots: arrayOf(count),
      fallbackCounters: arrayOf(count),
    },
  },
  report: { model: string },
  header: isObject,
  defaults: { x: arrayOf(number), w: arrayOf(number), u: arrayOf(number), p: arrayOf(number) },
  sources: arrayOf(SOURCE),
  unknowns: count,
  parameters: arrayOf(string),
  options: {
    folded: (v: unknown) => typeof v === 'boolean',
    start: optional(recordOf(number)),
    problem: optional(oneOf('forward', 'inverse')),
    target: optional(oneOf('js', 'wasm')),
  },
  failures: { blocks: Array.isArray, fallbacks: Array.isArray, iterations: Array.isArray },
  solveOrder: optional(arrayOf((v) => firstWrong(v, { name: string, equation: string }, 'u') === undefined)),
} satisfies Shape;

export const READS = { files: recordOf(nullable(string)), env: recordOf(nullable(string)), argv: optional(arrayOf(string)) };

/** what an entry holds */
export interface StoredEntry {
  format: number;
  data: CompiledData;
  /** the loader's warnings (a URDF's unsupported elements), shown again on a hit */
  warnings: string[];
  /** what the model module read while it was imported and built, and what it saw (part of the entry's key) */
  reads: Reads;
}

// (parsed JSON, the format expected) => the field that is wrong, or undefined for an entry that can be used
export function entryProblem(value: unknown, format: number): string | undefined {
  if (isObject(value) && value.format !== format) return 'format';
  return firstWrong(value, { warnings: arrayOf(string), reads: READS, data: DATA }, '');
}

// (parsed JSON) => the field that is wrong, or undefined for a list of reads that can be used
export const readsProblem = (value: unknown, format: number): string | undefined =>
  isObject(value) && value.format !== format ? 'format' : firstWrong(value, READS, '');
