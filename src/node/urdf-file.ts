// A URDF robot read from a file: the Node-only half of src/io/urdf.ts, kept
// apart so that the browser entry (src/browser.ts) never imports node:fs.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { type UrdfModel, type UrdfOptions, parseUrdf, urdfMechanism } from '../io/urdf.ts';

// (path of a .urdf file, options) => mechanism and warnings
export function loadUrdf(file: string, options: UrdfOptions = {}): UrdfModel {
  return urdfMechanism(parseUrdf(readFileSync(file, 'utf8'), basename(file)), options);
}
