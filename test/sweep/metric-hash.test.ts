// A sweep's metric module is known by its content, not its path
// (src/sweep/metric.ts): the hash covers its text and the files it imports,
// a thread that finds another file under the path says so, and a running
// `kron worker` given the same sweep with an edited metric computes the new
// numbers (the metric's hash is in the sweep's hash, on which the worker keys
// its thread pools; before, it reused the pool with the old module). The
// oracle of the metric's column is the sweep's own final(j1.q) column.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMetric, metricHash } from '../../src/sweep/metric.ts';
import { ModelError } from '../../src/errors.ts';
import { exited, freePort, killAll, kron, redisAvailable, redisMissing, root, skipQueue, startRedis, until } from './queue-harness.ts';

let folder: string;
beforeAll(() => {
  mkdirSync(join(root, 'test-artifacts'), { recursive: true });
  folder = mkdtempSync(join(root, 'test-artifacts', 'kron-metric-'));
  writeFileSync(join(folder, 'package.json'), '{ "type": "module" }');
});

/** a metric module: `scaled` = factor * final(j1.q), the factor from a file it imports */
function writeMetric(dir: string, factor: number): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'factor.ts'), `export const factor = ${factor};\n`);
  writeFileSync(
    join(dir, 'metric.ts'),
    "import { factor } from './factor.ts';\nexport default (r: { final(name: string): number }) => ({ scaled: factor * r.final('j1.q') });\n",
  );
  return join(dir, 'metric.ts');
}

describe('metricHash', () => {
  it("changes with the module's text and with a file it imports; the same files elsewhere hash the same", () => {
    const a = writeMetric(join(folder, 'a'), 1);
    const h1 = metricHash(a);
    expect(h1).toMatch(/^[0-9a-f]{16}$/);
    writeMetric(join(folder, 'a'), 2);
    const h2 = metricHash(a);
    expect(h2).not.toBe(h1);
    writeFileSync(a, readFileSync(a, 'utf8') + '// a comment\n');
    expect(metricHash(a)).not.toBe(h2);
    // another folder (another machine's checkout) with the same files
    const b = writeMetric(join(folder, 'b'), 1);
    expect(metricHash(b)).toBe(h1);
  });

  it('a module that is not the one the sweep was started with is a ModelError naming it', async () => {
    const file = writeMetric(join(folder, 'c'), 1);
    const started = metricHash(file);
    writeMetric(join(folder, 'c'), 3);
    await expect(loadMetric(file, started)).rejects.toThrow(ModelError);
    await expect(loadMetric(file, started)).rejects.toThrow(
      `metric module ${file} is not the one the sweep was started with: its text or a file it imports differs here`,
    );
    expect(typeof (await loadMetric(file, metricHash(file)))).toBe('function');
  });
});

// a running worker and an edited metric, through a real redis-server (the queue's harness: skipped without one outside CI)
afterAll(killAll);

/** the CSV's columns by name: final(j1.q) and scaled of every row */
function columns(csv: string): { final: number[]; scaled: number[] } {
  const [head, ...rows] = csv
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const at = (name: string) => rows.map((r) => Number(r[head.indexOf(name)]));
  return { final: at('final(j1.q)'), scaled: at('scaled') };
}

describe.skipIf(skipQueue)('a running kron worker and an edited metric', () => {
  it('the second sweep, with the metric edited, gets the new numbers from the same worker', async () => {
    expect(redisAvailable, redisMissing).toBe(true);
    const port = await freePort();
    const redis = await startRedis(port);
    const url = `redis://127.0.0.1:${port}`;
    // the worker finds the metric in its own --metric-dir (here the producer's folder: one machine)
    const metric = writeMetric(join(folder, 'queued'), 1);
    const worker = kron(['worker', '--queue', url, '--workers', '1', '--metric-dir', join(folder, 'queued')]);
    await until('the worker', () => worker.stderrText().includes('kron worker:'));
    const sweep = (out: string) =>
      kron(['sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.q=0.1,0.2,0.3', '--stop', '0.5', '--metric', metric, '--queue', url, '--out', join(folder, out)]);
    expect(await exited(sweep('one.csv'))).toBe(0);
    const one = columns(readFileSync(join(folder, 'one.csv'), 'utf8'));
    expect(one.final.every(Number.isFinite)).toBe(true);
    expect(one.scaled).toEqual(one.final);

    writeMetric(join(folder, 'queued'), 2); // the imported file edited: the module's text is the same
    expect(await exited(sweep('two.csv'))).toBe(0);
    const two = columns(readFileSync(join(folder, 'two.csv'), 'utf8'));
    expect(two.final).toEqual(one.final);
    expect(two.scaled).toEqual(one.final.map((v) => 2 * v)); // it was one.scaled: the worker's old module

    worker.kill('SIGTERM');
    await exited(worker);
    redis.kill('SIGTERM');
  });
});
