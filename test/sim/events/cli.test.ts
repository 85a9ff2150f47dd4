// kron simulate on a model with events: the counts on stderr, the Zeno
// guard's error and flags, their usage errors; the compile report's events.
import { describe, expect, it } from 'vitest';
import { kronInProcess } from '../../cli/in-process.ts';

const kron = (...args: string[]) => kronInProcess(...args);

describe('kron and events', () => {
  it('simulate counts the events on stderr; the ball rests on the floor', async () => {
    const r = await kron('simulate', 'mechanisms/bouncing-ball.ts', '--stop', '6', '--interval', '1', '--no-cache');
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('events: j.limit_upper 0, j.limit_upper_leave 0, j.limit_lower 39, j.limit_lower_leave 0');
    const last = r.stdout.trim().split('\n').at(-1)!.split(',').map(Number);
    expect(last[0]).toBe(6);
    expect(last[1]).toBeCloseTo(-9.81 / 9e4, 12); // m g / c_l below the floor (c_l = 1 kg (300 1/s)^2)
  });

  it('the Zeno guard stops the e = 0.5 ball with exit 1 and a message; --zeno-count sets it', async () => {
    const r = await kron(
      'simulate',
      'mechanisms/bouncing-ball.ts',
      '--stop',
      '3',
      '--set',
      'e=0.5',
      '--set',
      'restVelocity=0',
      '--zeno-count',
      '3',
      '--no-cache',
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/SimulationError: event j\.limit_lower happened 4 times in a row less than 1e-6 s apart, the last at time 1\.3545/);
    expect(r.stderr).toContain('hint: a model that switches ever faster');
  });

  it('refuses a zeno count or an event interval it cannot use', async () => {
    for (const [flag, value, message] of [
      ['--zeno-count', '0', 'zenoCount 0 must be an integer >= 1'],
      ['--min-event-interval', '-1', 'minEventInterval -1 must be a finite number >= 0'],
    ]) {
      const r = await kron('simulate', 'mechanisms/bouncing-ball.ts', flag, value);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  it('compile --json lists the events', async () => {
    const r = await kron('compile', 'mechanisms/bouncing-ball.ts', '--json', '--no-cache');
    expect(JSON.parse(r.stdout).events).toEqual([
      { name: 'j.limit_upper', component: 'j', direction: 'rising' },
      { name: 'j.limit_upper_leave', component: 'j', direction: 'falling' },
      { name: 'j.limit_lower', component: 'j', direction: 'rising' },
      { name: 'j.limit_lower_leave', component: 'j', direction: 'falling' },
    ]);
  });
});
