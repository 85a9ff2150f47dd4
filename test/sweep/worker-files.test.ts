// A worker's folders: a sweep's metric is read from the worker's
// --metric-dir only when its content is the producer's (SHA-256 computed
// here), details are written under --detail-dir, and nothing leads out of
// either folder, not even through a symbolic link.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkerSetupError, localSettings } from '../../src/sweep/worker-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'kron-worker-files-'));

describe("a worker's folders", () => {
  const metrics = join(dir, 'metrics');
  mkdirSync(metrics);
  const text = 'export default () => 1;\n';
  writeFileSync(join(metrics, 'm.ts'), text);
  const sha256 = createHash('sha256').update(text).digest('hex');
  const simulate = { stop: 1, step: 1e-3 };

  it('the metric by name in --metric-dir, when its content is the one the record names', () => {
    expect(localSettings({ simulate, metric: { name: 'm.ts', sha256 } }, { metricDir: metrics }).metric).toBe(join(metrics, 'm.ts'));
    const other = createHash('sha256').update('something else').digest('hex');
    expect(() => localSettings({ simulate, metric: { name: 'm.ts', sha256: other } }, { metricDir: metrics })).toThrow(
      /has other content \(SHA-256 [0-9a-f]{12}\.\.\.\): copy the producer's version/,
    );
    expect(() => localSettings({ simulate, metric: { name: 'n.ts', sha256 } }, { metricDir: metrics })).toThrow(
      `is not in --metric-dir ${metrics}: copy it there`,
    );
    expect(() => localSettings({ simulate, metric: { name: 'm.ts', sha256 } }, {})).toThrow(WorkerSetupError);
  });

  it('refuses a symbolic link out of the folder', () => {
    writeFileSync(join(dir, 'outside.ts'), text);
    symlinkSync(join(dir, 'outside.ts'), join(metrics, 'link.ts'));
    expect(() => localSettings({ simulate, metric: { name: 'link.ts', sha256 } }, { metricDir: metrics })).toThrow(
      /link\.ts leads to .*outside\.ts, outside the folder \(a symbolic link\?\): refused/,
    );
  });

  it('details under --detail-dir/<name>, made when missing; none without --detail-dir', () => {
    const details = join(dir, 'details');
    mkdirSync(details);
    expect(localSettings({ simulate, detail: 'run7' }, { detailDir: details }).detail).toBe(join(details, 'run7'));
    expect(() => localSettings({ simulate, detail: 'run7' }, {})).toThrow('this worker has no --detail-dir');
    symlinkSync(tmpdir(), join(details, 'away'));
    expect(() => localSettings({ simulate, detail: 'away' }, { detailDir: details })).toThrow(/outside the folder/);
  });
});
