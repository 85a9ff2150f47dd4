// An MJCF robot read from a file: the Node-only half of src/io/mjcf.ts, kept
// apart so that the browser entry never imports node:fs. <include file>
// names are read relative to the main file's folder, as MuJoCo reads them;
// what each read saw is returned for the compile cache's key (reads.ts).
import { resolve, basename, dirname } from 'node:path';
import { readFileSync, statSync } from 'node:fs';
import { type MjcfModel, type MjcfOptions, mjcfMechanism, parseMjcf } from '../io/mjcf.ts';
import { observedValue } from './compile-cache.ts';

// (path of an MJCF .xml file, options) => mechanism, warnings, and the included files with what was read of them
export function loadMjcf(file: string, options: MjcfOptions = {}): MjcfModel & { included: Record<string, string | null> } {
  const folder = dirname(resolve(file));
  const included: Record<string, string | null> = {};
  const readFile = (name: string) => {
    const path = resolve(folder, name);
    // a folder or a device is no file to include: "not found", as a missing one
    const seen = statSync(path, { throwIfNoEntry: false })?.isFile() ? observedValue(path, 'content') : null;
    included[path] = seen;
    return seen === null ? undefined : readFileSync(path, 'utf8');
  };
  return { ...mjcfMechanism(parseMjcf(readFileSync(file, 'utf8'), basename(file), { readFile }), options), included };
}
