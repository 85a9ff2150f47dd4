// A sweep's progress bar: runs done of all, runs per second, drawn on a terminal only.
import type { WriteStream } from 'node:tty';
import { describe, expect, it } from 'vitest';
import { spyOnOutput } from '../cli/output-spy.ts';
import { sweepBar } from '../../src/cli/progress.ts';

describe('sweepBar', () => {
  it('draws runs done of all and the rate', () => {
    const terminal = {
      isTTY: true,
      columns: 100,
      text: '',
      write(s: string) {
        terminal.text += s;
        return true;
      },
    };
    let now = 0;
    const bar = sweepBar(terminal as unknown as WriteStream, 40, () => now);
    now = 2000;
    bar.update(10);
    bar.stop();
    expect(terminal.text).toMatch(/sweep \[.*\] 10\/40 runs \| 5\.00 runs\/s \| .* left/);
  });
  it('draws nothing without a terminal: not a byte to stdout or stderr', () => {
    const writes = spyOnOutput();
    try {
      const bar = sweepBar(undefined, 10, () => 5000);
      bar.update(5);
      bar.stop();
    } finally {
      writes.restore();
    }
    expect(writes.calls).toEqual([]);
  });
});
