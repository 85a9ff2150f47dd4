// The WebAssembly binary format's number encodings, for the module writer
// (wasm.ts) and the hand-written kernel (wasm-cholesky.ts).

/** unsigned LEB128 */
export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

/** signed LEB128 */
export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
}

/** an f64 immediate: its eight bytes, little-endian */
export const f64 = (v: number): number[] => [...new Uint8Array(new Float64Array([v]).buffer)];
