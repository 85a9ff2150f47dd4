// `kron examples`: the programs of examples/ (shipped with the package), each
// listed by its name and the summary on its first line, and one copied into
// a folder of the user's to run and change there. A file of the user's is
// never overwritten without --force.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.ts';
import { writeOutput } from '../node/output-file.ts';
import { PACKAGE_ROOT } from '../node/package.ts';
import { didYouMean } from '../suggest.ts';
import type { Io } from './io.ts';

export const EXAMPLES_HELP = `usage: kron examples                      list the examples
       kron examples <name> [dir] [--force]  copy one into dir (default: the current folder)

The examples are small programs to copy and change: each builds a model,
compiles and runs it, and prints what it checked against a closed form
(a period, a loop closed, an equilibrium, eigenvalues). A copied example runs
where Kron is installed: npx tsx <name>.ts.

options:
  --force            overwrite a file of that name in dir

examples:
  kron examples
  kron examples pendulum
  kron examples urdf-pd robots --force
`;

/** the folder of the examples, in the repository and in an installed package */
export const EXAMPLES_DIR = join(PACKAGE_ROOT, 'examples');

export interface Example {
  name: string;
  /** the first line of the file's header, after "name: " */
  summary: string;
  file: string;
}

// () => the examples, by name, with the summary each file's first line gives (// name: summary)
export function listExamples(dir = EXAMPLES_DIR): Example[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => {
      const name = f.slice(0, -3);
      const first = readFileSync(join(dir, f), 'utf8').split('\n', 1)[0];
      const summary = first.startsWith(`// ${name}: `) ? first.slice(`// ${name}: `.length) : first.replace(/^\/\/\s*/, '');
      return { name, summary, file: join(dir, f) };
    });
}

export function runExamples(args: string[], io: Io): void {
  const { values, positionals } = parseArgs({
    args,
    options: { force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  const examples = listExamples();
  if (examples.length === 0)
    throw new UsageError(`no examples in ${EXAMPLES_DIR}`, { hint: 'the examples/ folder ships with the kron package: install it again' });
  const [name, dir = '.', ...extra] = positionals;
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`, { hint: 'kron examples <name> [dir]: one example, one folder' });
  if (name === undefined) {
    const width = Math.max(...examples.map((e) => e.name.length));
    io.stdout.write(
      `${examples.map((e) => `${e.name.padEnd(width)}  ${e.summary}`).join('\n')}\n\ncopy one here: kron examples <name>; run it: npx tsx <name>.ts\n`,
    );
    return;
  }
  const example = examples.find((e) => e.name === name.replace(/\.ts$/, ''));
  if (!example) {
    throw new UsageError(`no example named "${name}"`, {
      hint: `${didYouMean(
        name,
        examples.map((e) => e.name),
      )}examples: ${examples.map((e) => e.name).join(', ')}`,
    });
  }
  const target = join(dir, `${example.name}.ts`);
  if (existsSync(target) && !values.force) {
    throw new UsageError(`${target} exists already`, {
      hint: `kron examples ${example.name} ${dir === '.' ? '' : `${dir} `}--force overwrites it; or give another folder: kron examples ${example.name} <dir>`,
    });
  }
  // whole or not at all, the folder made; a disk full or a folder that cannot be written is an OutputError naming the file
  writeOutput(target, readFileSync(example.file, 'utf8'));
  const run = dir === '.' ? `npx tsx ${example.name}.ts` : `cd ${dir} && npx tsx ${example.name}.ts`;
  io.stdout.write(`copied ${example.name}.ts to ${target}\nrun it: ${run}\n`);
}
