// `npm start`: compile the default mechanism (printing the compile report),
// simulate it into results/<name>.json, and serve the viewer with that run
// loaded. The model is this script's one argument (package.json "start").
import { basename } from 'node:path';
import { main } from '../src/cli/main.ts';

const STOP = '10';
const INTERVAL = '0.01';

const model = process.argv[2];
if (!model) {
  process.stderr.write('usage: tsx viewer/start.ts <mechanism.ts> [--port P]\n');
  process.exit(2);
}
const out = `results/${basename(model, '.ts')}.json`;
let code = await main(['compile', model]);
if (code === 0) code = await main(['simulate', model, '--stop', STOP, '--interval', INTERVAL, '--out', out]);
if (code === 0) code = await main(['view', out, ...process.argv.slice(3)]);
if (code !== 0) process.exit(code);
