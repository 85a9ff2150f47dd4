// The error catalogue's harness (catalogue.test.ts, catalogue-io.test.ts):
// the CLI in-process through main(argv, io), or as a process where the exit
// code must reach the shell, and small URDF files written to fresh folders.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.ts';

const root = new URL('../../', import.meta.url).pathname;

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** kron in this process: its exit code and what it wrote */
export async function kron(...argv: string[]): Promise<Run> {
  let stdout = '',
    stderr = '';
  const code = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

/** bin/kron.mjs as a process: the exit code the shell sees */
export function kronProcess(...argv: string[]): Run {
  const r = spawnSync(process.execPath, [join(root, 'bin/kron.mjs'), ...argv], { cwd: root, encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** a file of this text in a fresh folder */
export function fileIn(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'kron-urdf-')), name);
  writeFileSync(file, text);
  return file;
}

/** a URDF file in a fresh folder: a fixed base, a link "a" of 1 kg, and the joints (and extra links) given */
export function urdf(
  name: string,
  body: string,
  a = '<inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>',
): string {
  return fileIn(name, `<?xml version="1.0"?>\n<robot name="r">\n  <link name="base"/>\n  <link name="a">${a}</link>\n  ${body}\n</robot>\n`);
}
export const joint = (name: string, type: string, parent: string, child: string, extra = '') =>
  `<joint name="${name}" type="${type}"><parent link="${parent}"/><child link="${child}"/>${extra}</joint>`;

export const lines = (...l: string[]) => l.join('\n') + '\n';
