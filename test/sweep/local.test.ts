// Sweeps on the thread pool: compiled once, results in run order and
// bit-identical for any number of workers, equal to plain simulate() runs;
// a run that fails is a row of its own; the portable model runs as the
// compiled one does.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SweepResult, type SweepSpec, compile, simulate, sweep, sweepCSV } from 'kron';
import { CompiledModel } from '../../src/codegen/compiled.ts';
import { main } from '../../src/cli/main.ts';
import build from '../../mechanisms/pendulum.ts';

const collect = async (results: AsyncIterable<SweepResult>) => {
  const out: SweepResult[] = [];
  for await (const r of results) out.push(r);
  return out;
};
const simulation = { stop: 0.3, step: 1e-3 };
const grid = (workers: number): SweepSpec => ({ grid: ['link.m=0.5:2:4', 'j1.q=-1,0.5'], simulate: simulation, signals: ['j1.q', 'j1.qd'], workers });
const monteCarlo = (workers: number): SweepSpec => ({
  samples: 6,
  dist: ['link.m=normal(1,0.2)', 'j1.qd=uniform(-2,2)'],
  seed: 11,
  simulate: simulation,
  workers,
});

describe('sweep on worker threads', () => {
  it('1 and 2 workers give bit-identical results in run order, for a grid and for Monte Carlo samples', async () => {
    for (const spec of [grid, monteCarlo]) {
      const one = await collect(sweep(build(), spec(1))),
        two = await collect(sweep(build(), spec(2)));
      expect(one.map((r) => r.index)).toEqual([...one.keys()]);
      expect(one.every((r) => r.status === 'ok')).toBe(true);
      const names = Object.keys(one[0].values);
      expect(sweepCSV(names, two)).toBe(sweepCSV(names, one));
    }
  });

  it('each run equals a plain simulate(): bit for bit with parameters kept symbolic, to 1e-12 against a compile with them folded', async () => {
    const runs = await collect(sweep(build(), grid(2)));
    expect(runs).toHaveLength(8);
    const symbolic = compile(build(), { foldParameters: false });
    for (const r of [runs[0], runs[5], runs[7]]) {
      const [m, q] = [r.values['link.m'], r.values['j1.q']];
      const plain = simulate(symbolic, { ...simulation, signals: ['j1.q', 'j1.qd'], parameters: { 'link.m': m }, start: { 'j1.q': q } });
      for (const s of ['j1.q', 'j1.qd'] as const) {
        expect(r.metrics[`final(${s})`]).toBe(plain.final(s));
        expect(r.metrics[`min(${s})`]).toBe(Math.min(...plain.get(s)));
        expect(r.metrics[`max(${s})`]).toBe(Math.max(...plain.get(s)));
      }
      const folded = simulate(compile(build(), { parameters: { 'link.m': m }, start: { 'j1.q': q } }), { ...simulation, signals: ['j1.q'] });
      expect(Math.abs(r.metrics['final(j1.q)'] - folded.final('j1.q'))).toBeLessThan(1e-12);
    }
  });

  it('a run that throws is recorded with its error and the other runs go on', async () => {
    // j1.qd = 1e200 overflows in the first evaluation (a SimulationError in the worker); mass -1 fails the body's own check before any run
    const runs = await collect(sweep(build(), { grid: ['link.m=1,-1', 'j1.qd=0,1e200,1'], simulate: simulation, signals: ['j1.q'], workers: 2 }));
    expect(runs.map((r) => r.status)).toEqual(['ok', 'error', 'ok', 'error', 'error', 'error']);
    expect(runs[1].error).toMatch(/^SimulationError: a non-finite value appeared in the step from time 0, at time 0: first non-finite variable der\(j1\.qd\)/);
    expect(runs[3].error).toMatch(/^ModelError: body link: mass -1/);
    expect(runs[1].metrics).toEqual({});
    expect(runs[2].metrics['final(j1.q)']).toBeTypeOf('number');
  });

  it('a name that is neither a parameter nor a state is a usage error before anything runs', async () => {
    await expect(collect(sweep(build(), { grid: ['link.mass=1,2'], simulate: simulation }))).rejects.toThrow(
      /link.mass, which is neither a parameter nor a variable/,
    );
  });

  it('the portable model, through JSON, runs bit-identically to the compiled model it came from', () => {
    const compiled = compile(build(), { foldParameters: false });
    const copy = new CompiledModel(JSON.parse(JSON.stringify(compiled.portable())));
    const options = { ...simulation, parameters: { 'link.m': 1.7 }, start: { 'j1.qd': 0.4 } };
    expect(simulate(copy, options).toCSV()).toBe(simulate(compiled, options).toCSV());
    expect(copy.source()).toBe(compiled.source());
    expect(() => copy.plan).toThrow(/portable form/);
  });
});

describe('kron sweep', () => {
  const run = async (...args: string[]) => {
    let stdout = '',
      stderr = '';
    const code = await main(['sweep', ...args], { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
    return { code, stdout, stderr };
  };

  it('writes one CSV row per run with the swept values, status, error, metrics and the --metric columns; --detail one CSV per run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-sweep-'));
    const out = join(dir, 'sweep.csv'),
      detail = join(dir, 'runs');
    const r = await run(
      'mechanisms/pendulum.ts',
      '--grid',
      'j1.q=-1,0,1',
      '--stop',
      '0.2',
      '--signals',
      'j1.q,j1.qd',
      '--metric',
      'test/sweep/fixtures/metric.ts',
      '--detail',
      detail,
      '--workers',
      '2',
      '--out',
      out,
    );
    expect(r.stderr).toBe(`wrote 3 runs (0 failed) to ${out}\n`);
    expect(r.code).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('run,j1.q,status,error,final(j1.q),min(j1.q),max(j1.q),final(j1.qd),min(j1.qd),max(j1.qd),peak speed,samples');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 4).join(','))).toEqual(['0,-1,ok,', '1,0,ok,', '2,1,ok,']);
    expect(lines[1].split(',').at(-1)).toBe('201');
    expect(readdirSync(detail).sort()).toEqual(['run-000000.csv', 'run-000001.csv', 'run-000002.csv']);
    expect(readFileSync(join(detail, 'run-000002.csv'), 'utf8').split('\n')[0]).toBe('time,j1.q,j1.qd');
  });

  it('a metric that reads a signal not recorded fails each run with the reason', async () => {
    const r = await run(
      'mechanisms/pendulum.ts',
      '--grid',
      'j1.q=0',
      '--stop',
      '0.1',
      '--signals',
      'j1.q',
      '--metric',
      'test/sweep/fixtures/metric.ts',
      '--workers',
      '1',
    );
    expect(r.stdout).toBe('run,j1.q,status,error\n0,0,error,UsageError: signal j1.qd was not recorded\n');
    expect(r.stderr).toBe('1 of 1 runs failed\n');
  });

  it('bad sweep flags are usage errors (exit 2) that name the flag', async () => {
    const bad = await run('mechanisms/pendulum.ts', '--grid', 'j1.q=1:2');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/UsageError: --grid "j1.q=1:2": a range is a:b:n/);
    const none = await run('mechanisms/pendulum.ts');
    expect(none.stderr).toMatch(/a sweep needs at least one --grid/);
    const workers = await run('mechanisms/pendulum.ts', '--grid', 'j1.q=1', '--workers', '0');
    expect(workers.stderr).toMatch(/--workers must be a whole number >= 1/);
  });
});
