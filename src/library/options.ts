// The options a component is built with, checked against what it reads: a
// model module is JavaScript at run time, so `q: 'zero'` or `mass: 3` reach
// the library whatever its types say. Without this check a string start
// value surfaced much later as "H z = c is singular", and an unknown key was
// silently ignored (a body with `mass: 3` had no mass). Each component lists
// its options with what each must be (a schema that `satisfies` its options
// interface, so that a new option cannot be forgotten); a wrong one is a
// ModelError naming the component and the option, with "did you mean".
import { ModelError } from '../errors.ts';
import { didYouMean } from '../suggest.ts';

export interface OptionKind {
  /** the value is of this kind (undefined is always allowed: the option is left out) */
  is(value: unknown): boolean;
  /** "a number", for the message */
  what: string;
  /** an example of a right value, for the hint */
  example: string;
}

const isObject = (v: unknown) => typeof v === 'object' && v !== null;

export const NUMBER: OptionKind = { is: (v) => typeof v === 'number', what: 'a number', example: '0' };
export const BOOLEAN: OptionKind = { is: (v) => typeof v === 'boolean', what: 'true or false', example: 'true' };
export const TEXT: OptionKind = { is: (v) => typeof v === 'string', what: 'a string', example: "'#2e86de'" };
/** an array of numbers, or of expressions (a vector given as Exprs) */
export const NUMBERS: OptionKind = {
  is: (v) => Array.isArray(v) && v.every((x) => typeof x === 'number' || isObject(x)),
  what: 'an array of numbers',
  example: '[0, 0, 1]',
};
/** an object of the library's own (a geometry) */
export const OBJECT: OptionKind = { is: (v) => isObject(v) && !Array.isArray(v), what: 'an object', example: '{ ... }' };

/** one object of the library's own, or a list of them (a body's geometries) */
export const OBJECTS: OptionKind = {
  is: (v) => OBJECT.is(v) || (Array.isArray(v) && v.every((x) => OBJECT.is(x))),
  what: 'an object or an array of objects',
  example: '{ ... }',
};

/** an array of objects (a body's colliders) */
export const LIST: OptionKind = { is: (v) => Array.isArray(v) && v.every((x) => OBJECT.is(x)), what: 'an array of objects', example: '[{ ... }]' };

/** one of the given values */
export function oneOf(...values: readonly unknown[]): OptionKind {
  const shown = values.map((v) => JSON.stringify(v).replaceAll('"', "'"));
  return { is: (v) => values.includes(v), what: `one of ${shown.join(', ')}`, example: shown[0] };
}

/** the value as the message shows it: 'zero' (a string) */
function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}...` : value}' (a string)`;
  if (value === null) return 'null';
  if (Array.isArray(value))
    return `an array of ${value.length} (${
      value
        .map((x) => typeof x)
        .filter((t, i, a) => a.indexOf(t) === i)
        .join(', ') || 'nothing'
    })`;
  if (typeof value === 'object') return 'an object';
  return `${String(value)} (${typeof value})`;
}

// (what the component is, e.g. "body link"; its options; its schema) => nothing, or a ModelError
export function checkOptions(component: string, options: object | undefined, schema: Readonly<Record<string, OptionKind>>): void {
  if (options === undefined) return;
  if (!isObject(options) || Array.isArray(options)) {
    throw new ModelError(`${component}: its options are ${shown(options)}, not an object`, {
      hint: `give an object, e.g. { ${Object.keys(schema)[0]}: ${Object.values(schema)[0]?.example} }`,
    });
  }
  const known = Object.keys(schema);
  for (const [key, value] of Object.entries(options)) {
    const kind = schema[key];
    if (!Object.hasOwn(schema, key) || !kind) {
      throw new ModelError(`${component}: unknown option ${key}`, {
        hint: `${didYouMean(key, known)}the options of ${component.split(' ')[0]}: ${known.join(', ')}`,
      });
    }
    if (value !== undefined && !kind.is(value)) {
      throw new ModelError(`${component}: option ${key} is ${shown(value)}, where ${kind.what} belongs`, { hint: `e.g. ${key}: ${kind.example}` });
    }
  }
}
