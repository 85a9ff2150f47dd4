// A metric's values are finite numbers under names that are not yet columns
// of the sweep's CSV: anything else makes that run an error row naming the
// metric, the run and the key (null was 0, a string three NaN columns, a key
// "status" a second status column).
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

async function sweep(metric: string, grid = 'j1.q=0,1') {
  let stdout = '',
    stderr = '';
  const code = await main(
    ['sweep', 'mechanisms/pendulum.ts', '--grid', grid, '--stop', '0.01', '--signals', 'j1.q', '--workers', '1', '--metric', `test/sweep/fixtures/${metric}`],
    {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t) },
    },
  );
  return { code, rows: stdout.trim().split('\n'), stderr };
}

const row = (run: number, q: number, error: string) => `${run},${q},error,"ModelError: metric test/sweep/fixtures/${error.replace(/"/g, '""')}"`;

describe('metric values', () => {
  it('null is an error row, not 0', async () => {
    const r = await sweep('metric-null.ts');
    expect(r.rows).toEqual([
      'run,j1.q,status,error',
      row(0, 0, 'metric-null.ts, run 0: "peak" is null, not a finite number'),
      row(1, 1, 'metric-null.ts, run 1: "peak" is null, not a finite number'),
    ]);
    expect(r.stderr).toBe('2 of 2 runs failed\n');
    expect(r.code).toBe(0); // a failed run is a row; the sweep itself went through
  });

  it('a string is an error row, not a column per character of NaN', async () => {
    const r = await sweep('metric-string.ts', 'j1.q=0');
    expect(r.rows).toEqual([
      'run,j1.q,status,error',
      row(0, 0, 'metric-string.ts, run 0: returned the string "hello", not a number or an object of named numbers'),
    ]);
  });

  it('a key that is already a column (status) is an error row, not a second status column', async () => {
    const r = await sweep('metric-clash.ts', 'j1.q=0');
    expect(r.rows).toEqual(['run,j1.q,status,error', row(0, 0, 'metric-clash.ts, run 0: "status" is already a column of the sweep\'s CSV')]);
  });

  it('a value that is not finite fails its run only; the other runs keep their column', async () => {
    const r = await sweep('metric-infinite.ts', 'j1.q=0,0.5');
    expect(r.rows[0]).toBe('run,j1.q,status,error,final(j1.q),min(j1.q),max(j1.q),inverse');
    expect(r.rows[1]).toBe(`${row(0, 0, 'metric-infinite.ts, run 0: "inverse" is Infinity, not a finite number')},,,,`);
    expect(r.rows[2]).toMatch(/^1,0\.5,ok,,[^,]+,[^,]+,0\.5,2$/); // 1 / 0.5
  });
});
