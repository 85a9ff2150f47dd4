// A pool destroyed while its threads still run (a consumer of sweep() that
// stops early): the runs that finish after it post results piscina no longer
// knows; that must not become an uncaught exception (it did once in CI,
// "Unexpected message from Worker", from test/sweep/limits.test.ts).
import { describe, expect, it } from 'vitest';
import { sweep } from '../../src/sweep/sweep.ts';
import build from '../../mechanisms/pendulum.ts';

describe('a sweep left early', () => {
  it('thirty times: break after the first result of 64 short runs (most in flight); no uncaught error (piscina emitted one without the listener)', async () => {
    const uncaught: unknown[] = [];
    const record = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', record);
    try {
      for (let round = 0; round < 30; round++) {
        for await (const r of sweep(build(), { grid: ['j1.q=0:1:64'], simulate: { stop: 0.001 * (round % 5), step: 1e-4 }, signals: ['j1.q'], workers: 2 })) {
          expect(r.status).toBe('ok');
          break;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 200)); // the last runs' messages
    } finally {
      process.off('uncaughtException', record);
    }
    expect(uncaught).toEqual([]);
  });
});
