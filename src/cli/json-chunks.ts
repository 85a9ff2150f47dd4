// JSON text in pieces of about `size` characters, for results too long to be
// one string: V8 ends a string at 2^29 - 24 characters, about 28 million
// numbers, and JSON.stringify of a long run threw "Invalid string length".
// The text is JSON.stringify's for plain data (objects, arrays, numbers,
// strings, booleans, null; undefined members left out, non-finite numbers as
// null), with typed arrays written as arrays of numbers.

// (plain data, piece size) => the JSON text, piece by piece
export function* jsonChunks(value: unknown, size = 1 << 16): Generator<string> {
  const out = { text: '' };
  yield* walk(value, out, size);
  if (out.text) yield out.text;
}

/** a typed array of numbers, or a plain array with numbers only: written in a tight loop */
const numbers = (v: unknown): v is ArrayLike<number> =>
  (ArrayBuffer.isView(v) && !(v instanceof DataView) && !(v instanceof BigInt64Array) && !(v instanceof BigUint64Array)) ||
  (Array.isArray(v) && v.every((x) => typeof x === 'number'));

const number = (x: number) => (Number.isFinite(x) ? String(x) : 'null');

function* walk(v: unknown, out: { text: string }, size: number): Generator<string> {
  if (numbers(v)) {
    out.text += '[';
    for (let i = 0; i < v.length; i++) {
      out.text += i ? ',' + number(v[i]) : number(v[i]);
      if (out.text.length >= size) (yield out.text, (out.text = ''));
    }
    out.text += ']';
    return;
  }
  if (Array.isArray(v)) {
    out.text += '[';
    for (let i = 0; i < v.length; i++) {
      if (i) out.text += ',';
      const item = v[i] as unknown;
      // JSON.stringify writes null for what it cannot write inside an array
      yield* walk(item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item, out, size);
    }
    out.text += ']';
    return;
  }
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON !== 'function') {
    out.text += '{';
    let first = true;
    for (const [key, item] of Object.entries(v)) {
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      out.text += (first ? '' : ',') + JSON.stringify(key) + ':';
      first = false;
      yield* walk(item, out, size);
    }
    out.text += '}';
    return;
  }
  out.text += JSON.stringify(v) ?? 'null';
  if (out.text.length >= size) (yield out.text, (out.text = ''));
}
