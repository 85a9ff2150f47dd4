// The frames of a stack trace that are the user's: not Node's (node:...),
// not Kron's own code, not a package's (node_modules), not the vm script
// that times a call (user-code.ts). Paths inside the current folder are
// shown relative to it, as the user typed them.
import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const KRON_CODE = dirname(dirname(fileURLToPath(import.meta.url)));
/** bin/kron.mjs beside src/ (or dist/) */
const KRON_BIN = `${dirname(KRON_CODE.endsWith(`${sep}dist${sep}src`) ? dirname(KRON_CODE) : KRON_CODE)}${sep}bin${sep}`;

// (error.stack) => "fn (file:line:col)" of each frame in the user's files, innermost first
export function userFrames(stack: string): string[] {
  const out: string[] = [];
  for (const line of stack.split('\n')) {
    const m = /^\s+at (?:(.*?) \()?(.+?):(\d+):(\d+)\)?$/.exec(line);
    if (!m) continue;
    const [, fn, location, row, column] = m;
    const path = location.startsWith('file://') ? fileURLToPath(location) : location;
    if (!path.startsWith(sep) || path.startsWith(KRON_CODE + sep) || path.startsWith(KRON_BIN) || path.includes(`${sep}node_modules${sep}`)) continue;
    const near = relative(process.cwd(), path);
    const shown = `${near.startsWith('..') ? path : near}:${row}:${column}`;
    out.push(fn ? `${fn} (${shown})` : shown);
  }
  return out;
}
