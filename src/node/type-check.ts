// A model module type-checked against Kron's types, as `kron check` does it:
// the TypeScript compiler on the module (and the user's files it imports),
// with 'kron' mapped to the types of the Kron that runs the command (the
// sources in the repository, the shipped declarations when installed), so
// that a string where a number belongs or an option a component does not have
// is found with its line and column before anything runs.
//
// TypeScript is an optional peer dependency: it is 23 MB that a user who
// compiles and simulates does not need. There is nothing lighter that checks
// types (a bundler strips them unread), so a missing package is a UsageError
// saying what to install, as for the Redis queue (sweep/optional.ts).
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type * as TS from 'typescript';
import { UsageError } from '../errors.ts';
import { PACKAGE_ROOT } from './package.ts';
import { closest } from '../suggest.ts';

/** one diagnostic: where and what, as the user reads it (file relative to the current folder) */
export interface TypeDiagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
  /** TypeScript's number of the error, e.g. 2322 */
  code: number;
  /** a syntax error (the file does not parse), not a type error */
  syntax: boolean;
}

/** the last program, and the files not the user's (Kron's, the packages'): parsed once per process, reused by the next check */
let previous: TS.Program | undefined;
const kept = new Map<string, TS.SourceFile>();

/** the types 'kron' and 'kron/browser' stand for: the sources in the repository, the declarations in a package */
function kronTypes(): { kron: string; browser: string; own: string[] } {
  const sources = join(PACKAGE_ROOT, 'src/index.ts');
  if (existsSync(sources))
    return { kron: sources, browser: join(PACKAGE_ROOT, 'viewer/browser.ts'), own: ['src', 'viewer', 'dist'].map((d) => join(PACKAGE_ROOT, d)) };
  return { kron: join(PACKAGE_ROOT, 'dist/src/index.d.ts'), browser: join(PACKAGE_ROOT, 'dist/viewer/browser.d.ts'), own: [join(PACKAGE_ROOT, 'dist')] };
}

async function loadTypeScript(): Promise<typeof TS> {
  try {
    // a CommonJS package: its exports are the default export of the ES module Node makes of it
    const mod = (await import('typescript')) as typeof TS & { default?: typeof TS };
    return mod.default ?? mod;
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw e;
    throw new UsageError('kron check needs the package typescript, which is not installed', {
      hint: 'TypeScript is an optional peer of Kron: npm install --save-dev typescript (kron compile and simulate run without it)',
    });
  }
}

/** the compiler options of the check: strict, ES modules as Node runs them, TypeScript's own import extensions allowed */
function options(ts: typeof TS, types: ReturnType<typeof kronTypes>): TS.CompilerOptions {
  return {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    paths: { kron: [types.kron], 'kron/browser': [types.browser] },
  };
}

// (model module, or several checked together) => the type errors of them and of the user's files they import, in file and line order
export async function typeCheck(file: string | readonly string[]): Promise<TypeDiagnostic[]> {
  const ts = await loadTypeScript();
  const paths = (typeof file === 'string' ? [file] : file).map((f) => resolve(f));
  const types = kronTypes();
  const compilerOptions = options(ts, types);
  // the user's files: not Kron's own, not a package's
  const isUsers = (name: string) => !name.split(/[\\/]/).includes('node_modules') && !types.own.some((d) => resolve(name).startsWith(d + sep));
  const host = ts.createCompilerHost(compilerOptions);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    if (isUsers(name)) return read(name, language, ...rest);
    const source = kept.get(name) ?? read(name, language, ...rest);
    if (source) kept.set(name, source);
    return source;
  };
  const program = (previous = ts.createProgram(paths, compilerOptions, host, previous));
  const users = program.getSourceFiles().filter((s) => !s.isDeclarationFile && isUsers(s.fileName));
  const syntax = users.flatMap((s) => program.getSyntacticDiagnostics(s)).map((d) => describe(ts, d, true));
  // types only of files that parse: the checker's errors in a file that does not are the parser's again
  if (syntax.length) return syntax;
  // and the options' own problems (none expected), a file that cannot be read
  const semantic = [...users.flatMap((s) => program.getSemanticDiagnostics(s)), ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  return semantic.map((d) => ({ ...describe(ts, d, false), ...(d.code === UNKNOWN_PROPERTY && { message: withKnown(ts, program, d) }) }));
}

/** "Object literal may only specify known properties, and 'x' does not exist in type 'T'" */
const UNKNOWN_PROPERTY = 2353;

/** that message, then the nearest property when one is near (TypeScript suggests one only sometimes) and all the type has */
function withKnown(ts: typeof TS, program: TS.Program, d: TS.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(d.messageText, '\n  ');
  const literal = d.file && d.start !== undefined ? enclosingLiteral(ts, d.file, d.start) : undefined;
  const checker = program.getTypeChecker();
  const type = literal && checker.getContextualType(literal);
  // an optional options argument is T | undefined, whose common properties are none
  const known = type
    ? checker
        .getNonNullableType(type)
        .getProperties()
        .map((p) => p.name)
    : [];
  if (known.length === 0) return message;
  const near = closest(/'([^']+)' does not exist/.exec(message)?.[1] ?? '', known);
  return `${message} ${near ? `Did you mean ${near}? ` : ''}It takes: ${known.join(', ')}.`;
}

/** the innermost object literal around a position of a file */
function enclosingLiteral(ts: typeof TS, file: TS.SourceFile, at: number): TS.ObjectLiteralExpression | undefined {
  let found: TS.ObjectLiteralExpression | undefined;
  const visit = (node: TS.Node): void => {
    if (at < node.getStart(file) || at >= node.getEnd()) return;
    if (ts.isObjectLiteralExpression(node)) found = node;
    node.forEachChild(visit);
  };
  visit(file);
  return found;
}

function describe(ts: typeof TS, d: TS.Diagnostic, syntax: boolean): TypeDiagnostic {
  const message = ts.flattenDiagnosticMessageText(d.messageText, '\n  ');
  if (!d.file || d.start === undefined) return { file: '', line: 0, column: 0, message, code: d.code, syntax };
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  const near = relative(process.cwd(), d.file.fileName);
  return { file: near.startsWith('..') || isAbsolute(near) ? d.file.fileName : near, line: line + 1, column: character + 1, message, code: d.code, syntax };
}

/** file:line:col, where a diagnostic is */
export const placeOf = (d: TypeDiagnostic): string => (d.file ? `${d.file}:${d.line}:${d.column}` : '');

/** file:line:col message (TSnnnn), as compilers and editors print it */
export function formatDiagnostic(d: TypeDiagnostic): string {
  return `${d.file ? `${placeOf(d)} ` : ''}${d.message} (TS${d.code})`;
}
