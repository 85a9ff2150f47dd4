#!/usr/bin/env node
// The kron command: registers the TypeScript loader (tsx), so that model
// modules written in TypeScript load directly, then runs the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
