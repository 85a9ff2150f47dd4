// The API reference: TypeDoc over the package's entry points (typedoc.json:
// src/index.ts, viewer/browser.ts) into docs/reference/api/ (HTML, not
// checked in), and the share of exported symbols with a doc comment, counted
// over the kinds TypeDoc's own "not documented" check counts (its
// requiredToBeDocumented option). Prints the page count, the share and, with
// --missing, every symbol without a comment.
//   npm run docs:api [-- --missing]
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Application, ReflectionKind, type DeclarationReflection, type Reflection } from 'typedoc';

const OUT = 'docs/reference/api';

const app = await Application.bootstrapWithPlugins({ options: 'typedoc.json', logLevel: 'Error' });
const project = await app.convert();
if (!project) throw new Error('TypeDoc could not convert the entry points (run npx typedoc for its messages)');

const required = new Set(app.options.getValue('requiredToBeDocumented').map((k) => ReflectionKind[k as keyof typeof ReflectionKind]));
/** a symbol counts as documented when it, or one of its signatures (a function's, an accessor's), has a comment */
const documented = (r: Reflection) => {
  const d = r as DeclarationReflection;
  return !!r.comment || [...(d.signatures ?? []), d.getSignature, d.setSignature].some((s) => s?.comment);
};
const symbols = Object.values(project.reflections).filter((r) => required.has(r.kind) && !r.kindOf(ReflectionKind.SomeSignature));
const missing = symbols.filter((r) => !documented(r));

await app.generateDocs(project, OUT);
const pages = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? pages(join(dir, e.name)) : +e.name.endsWith('.html')), 0);

const share = (100 * (symbols.length - missing.length)) / symbols.length;
console.log(`${OUT}: ${pages(OUT)} pages; ${symbols.length - missing.length} of ${symbols.length} exported symbols documented (${share.toFixed(1)}%)`);
if (process.argv.includes('--missing')) for (const r of missing) console.log(`  ${r.getFullName()} (${ReflectionKind[r.kind]})`);
