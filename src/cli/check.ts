// `kron check model.ts`: a model module checked before it is run. First its
// types, against Kron's (node/type-check.ts): each error as file:line:col
// message. Then, as compile would, it is imported, built and compiled, so that
// a module that type-checks but throws, or builds a model that cannot be
// compiled (an unconnected frame, a singular loop), is reported too.
import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { ModelError, UsageError } from '../errors.ts';
import { shipped } from '../node/package.ts';
import type { Io } from './io.ts';
import { COMPILE_OPTIONS, MODEL_FLAGS, compileFrom, negativeValues } from './model-commands.ts';

export const CHECK_HELP = `usage: kron check <model.ts|robot.urdf> [options]

Checks a model without running it: a model module's types against Kron's (a
string where a number belongs, an option a component does not have, a
misspelt name), each error printed as file:line:col message; then the module
is imported, built and compiled as kron compile would, so that an exception
of its own or a model that cannot be compiled is reported too. Exit 0 when
all is well, 1 with the errors. A URDF or MJCF robot, and a JavaScript module,
are built and compiled only.

The type check needs the package typescript (an optional peer of Kron):
npm install --save-dev typescript.

${MODEL_FLAGS}

examples:
  kron check mechanisms/pendulum.ts
  kron check mechanisms/chain.ts --set n=4
`;

const TYPED = ['.ts', '.mts', '.cts'];

export async function runCheck(args: string[], io: Io): Promise<void> {
  const { values, positionals } = parseArgs({ args: negativeValues(args, COMPILE_OPTIONS), options: COMPILE_OPTIONS, allowPositionals: true, strict: true });
  const [file, ...extra] = positionals;
  if (!file) throw new UsageError('kron check needs a model file', { hint: shipped('kron check mechanisms/pendulum.ts; kron check --help') });
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`, { hint: 'kron check takes one model file; kron check --help' });
  const typed = TYPED.includes(extname(file).toLowerCase());
  // a missing file is the loader's error below, said as kron compile says it
  if (typed && existsSync(file)) await checkTypes(file, io);
  const loaded = await compileFrom(file, values, io, 'forward', { eager: true, cacheNotes: false });
  // built even when the compile came from the cache (reading the model builds it): the build's own errors are the module's
  void loaded.model;
  const r = loaded.compiled.report;
  io.stdout.write(
    `${file}: ${typed ? 'types ok, ' : ''}built and compiled: ${r.equations} equations, ${r.states} states, ${r.mode} form, ${r.blocks.length} algebraic loop${r.blocks.length === 1 ? '' : 's'}\n`,
  );
}

async function checkTypes(file: string, io: Io): Promise<void> {
  const { typeCheck, formatDiagnostic, placeOf } = await import('../node/type-check.ts');
  const diagnostics = await typeCheck(file);
  if (diagnostics.length === 0) return;
  const [first] = diagnostics;
  // a syntax error as kron compile says it (node/user-code.ts), and any others above it
  if (first.syntax) {
    for (const d of diagnostics.slice(1)) io.stderr.write(`${formatDiagnostic(d)}\n`);
    throw new ModelError(`model module ${file} has a syntax error at ${placeOf(first)}: ${first.message}`, {
      hint: diagnostics.length > 1 ? `and ${diagnostics.length - 1} more, above; correct the first, and check again` : 'correct it, and check again',
    });
  }
  for (const d of diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
  const n = diagnostics.length;
  throw new ModelError(`model module ${file} does not type-check: ${n} error${n === 1 ? '' : 's'}, above`, {
    hint: "the types are the kron package's: each component's options type lists what it takes (an editor shows them as you type)",
  });
}
