// npm run lint (and .ci/run, beside the typecheck): typescript-eslint's
// recommended rules, and import rules that encode the pipeline of
// docs/ARCHITECTURE.md: a stage never imports a later one, the engine never
// imports the viewer or the benchmark scripts.
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layers } from './scripts/eslint/layers.js';

const root = fileURLToPath(new URL('.', import.meta.url));

/** [folder that imports, folder it must not import, why]; checked by scripts/eslint/layers.js */
const LAYERS = [
  ['./src', './bench', 'the engine ships without bench/ (the benchmark scripts); the `kron bench` command lives in src/bench'],
  ['./src', './viewer', 'the engine never imports the viewer (viewer/ imports src/); the CLI bundles the page by path'],
  ['./src', './test', 'the engine never imports its tests'],
  ['./src/structure', './src/codegen', 'structure (sorting, tearing, the solve plan) comes before codegen in the pipeline'],
  ['./src/library', './src/structure', 'component libraries declare equations and hints; they never reach into the structural passes'],
  ['./src/model', './src/structure', 'the flat model comes before structure in the pipeline'],
  ['./src/expr', './src/model', 'expressions are the bottom layer'],
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'results/', 'test-artifacts/', 'bench/results/', 'test/codegen/golden/', 'docs/reference/api/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { console: 'readonly', process: 'readonly', URL: 'readonly', performance: 'readonly' },
    },
    rules: {
      // the code writes paired side effects as comma sequences on purpose: if (d > far) (far = d), (best = k);
      '@typescript-eslint/no-unused-expressions': 'off',
      // `_` names a value left out on purpose (const { variant: _, ...rest } = p)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    plugins: { kron: { rules: { layers } } },
    rules: {
      'kron/layers': ['error', { root, zones: LAYERS.map(([target, from, message]) => ({ target, from, message })) }],
    },
  },
);
