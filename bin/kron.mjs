#!/usr/bin/env node
// The kron command. Installed from the package, it runs the built CLI
// (dist/); tsx is registered only when a TypeScript model module is loaded
// (src/node/import-module.ts). In the repository (src/ beside bin/) it runs
// dist/ too when dist/ was built from the sources as they are
// (scripts/build-inputs.mjs, distIsFresh: file times, ~3 ms), and otherwise
// the TypeScript sources through tsx with the repository's tsconfig, whose
// paths map 'kron' to src/: edits need no build, and model modules that
// import 'kron' get the very classes the CLI checks against. Through tsx,
// Kron's ~280 modules cost ~0.4 s of CPU more at every start (issue 35);
// KRON_FROM_SOURCES=1 asks for the sources all the same.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** the command returned (or a closed pipe ended it): an exit before that is explained */
let finished = false;

// a closed pipe (kron simulate … | head -1) is the reader saying it has read enough: end quietly
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
  finished = true;
  process.exit(0);
});

const sources = new URL('../src/cli/main.ts', import.meta.url);
let cli;
if (existsSync(sources) && (process.env.KRON_FROM_SOURCES === '1' || !(await import('../scripts/build-inputs.mjs')).distIsFresh())) {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
  cli = await import(sources.href);
} else {
  // in the repository, a model module's Kron must be dist/ too, whether it imports 'kron' or ../src/...ts
  // (src/node/import-module.ts, prepareLoader; inherited by the processes and threads a command starts)
  if (existsSync(sources)) process.env.KRON_REPO_DIST = new URL('..', import.meta.url).href;
  cli = await import('../dist/src/cli/main.js');
}
// the user's modules run under time limits, and process.exit in them is theirs to explain (src/node/user-code.ts);
// no top-level await on the command: a module's await that never settles would end the process with 13 and no word
cli.guardProcess();
process.on('exit', (code) => {
  if (!finished) process.exitCode = cli.explainEarlyExit(code);
});
cli.main(process.argv.slice(2)).then((code) => {
  finished = true;
  process.exitCode = code;
});
