// npm run build:runtime: the run-time helpers' sources (src/codegen/runtime/,
// ordinary TypeScript, type-checked and linted) as the text a generated
// module carries, written to src/codegen/runtime/parts.generated.ts.
//
// A generated module is one self-contained function body (run by new
// Function in Node and in the browser, written standalone by --emit): it
// cannot import. So each top-level declaration of the runtime's files
// becomes a part, its types stripped by esbuild (comments go: the sources
// keep them), with the names of the other parts it refers to; codegen then
// prints only the parts a model uses and what they need
// (runtime/source.ts). The text is made here, once, from the sources, not at
// run time: the browser has no TypeScript compiler, and
// Function.prototype.toString would give whatever a bundler made of the
// functions (renamed by a minifier). A test (test/codegen/runtime-parts)
// fails when the committed file is not what this script makes.
//
// Run: npx tsx scripts/runtime-parts.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
export const RUNTIME_DIR = join(root, 'src/codegen/runtime');
export const PARTS_FILE = join(RUNTIME_DIR, 'parts.generated.ts');
/** the runtime's files, in the order their parts are printed */
const FILES = ['pivot.ts', 'dense.ts', 'cholesky.ts', 'newton.ts', 'columns.ts'];

interface Part {
  name: string;
  file: string;
  deps: string[];
  text: string;
}

/** a top-level declaration of a runtime file: its name and node; an import: the module it comes from */
interface Declared {
  name: string;
  node: ts.Node;
  from?: string;
}

function declarations(file: string, sf: ts.SourceFile): Declared[] {
  const out: Declared[] = [];
  for (const st of sf.statements) {
    if (ts.isFunctionDeclaration(st) && st.name) out.push({ name: st.name.text, node: st });
    else if (ts.isVariableStatement(st)) {
      if (st.declarationList.declarations.length !== 1) throw new Error(`${file}: one variable per statement in the runtime (each is a part of its own)`);
      const d = st.declarationList.declarations[0];
      if (!ts.isIdentifier(d.name)) throw new Error(`${file}: a destructuring declaration in the runtime`);
      out.push({ name: d.name.text, node: st });
    } else if (ts.isImportDeclaration(st) && !st.importClause?.isTypeOnly) {
      const spec = (st.moduleSpecifier as ts.StringLiteral).text;
      const named = st.importClause?.namedBindings;
      if (!named || !ts.isNamedImports(named)) continue;
      for (const el of named.elements) if (!el.isTypeOnly) out.push({ name: el.name.text, node: st, from: resolve(dirname(join(RUNTIME_DIR, file)), spec) });
    }
  }
  return out;
}

/** the identifiers of node that name one of `names` */
function referenced(node: ts.Node, names: ReadonlySet<string>, self: string): string[] {
  const found = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n) && names.has(n.text) && n.text !== self) found.add(n.text);
    n.forEachChild(visit);
  };
  visit(node);
  return [...found];
}

/** a declaration's JavaScript: types stripped, `export` dropped (the module body cannot export) */
function javascript(sf: ts.SourceFile, node: ts.Node): string {
  const text = sf.text.slice(node.getStart(sf), node.end).replace(/^export\s+/, '');
  return transformSync(text, { loader: 'ts', target: 'es2022' }).code.trimEnd();
}

// (runtime files) => parts in print order, each with its dependencies
export async function runtimeParts(): Promise<Part[]> {
  const files = FILES.map((file) => ({ file, sf: ts.createSourceFile(file, readFileSync(join(RUNTIME_DIR, file), 'utf8'), ts.ScriptTarget.ES2022, true) }));
  const declared = files.map(({ file, sf }) => ({ file, sf, decls: declarations(file, sf) }));
  const own = new Set(declared.flatMap((f) => f.decls.filter((d) => !d.from).map((d) => d.name)));
  const parts: Part[] = [];
  const seen = new Set<string>();
  for (const { file, sf, decls } of declared) {
    // an import from outside the runtime must be a number: printed as a constant of its own
    for (const d of decls.filter((x) => x.from && !own.has(x.name) && !seen.has(x.name))) {
      const value = (await import(pathToFileURL(d.from!).href))[d.name];
      if (typeof value !== 'number')
        throw new Error(`${file}: ${d.name}, imported from outside the runtime, is not a number (a generated module cannot import it)`);
      parts.push({ name: d.name, file, deps: [], text: `const ${d.name} = ${value};` });
      seen.add(d.name);
    }
    const names = new Set([...own, ...seen]);
    for (const d of decls.filter((x) => !x.from)) parts.push({ name: d.name, file, deps: referenced(d.node, names, d.name), text: javascript(sf, d.node) });
  }
  return parts;
}

export function partsFileText(parts: readonly Part[]): string {
  const entries = parts.map(
    (p) => `  ${p.name}: {\n    file: ${JSON.stringify(p.file)},\n    deps: ${JSON.stringify(p.deps)},\n    text: ${JSON.stringify(p.text)},\n  },`,
  );
  return [
    '// Generated by `npm run build:runtime` (scripts/runtime-parts.ts) from the',
    '// sources in this folder. Do not edit: change the sources and regenerate.',
    '// Each top-level declaration of the runtime as JavaScript, with the names',
    '// of the others it refers to, in print order (runtime/source.ts).',
    'export const RUNTIME_PARTS = {',
    ...entries,
    '} as const;',
    '',
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = partsFileText(await runtimeParts());
  if (process.argv.includes('--check')) {
    if (readFileSync(PARTS_FILE, 'utf8') !== text) {
      process.stderr.write(`${PARTS_FILE} is stale: run npm run build:runtime\n`);
      process.exit(1);
    }
  } else writeFileSync(PARTS_FILE, text);
}
