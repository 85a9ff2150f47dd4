// The progress bar: drawn on a terminal once a run has lasted a second,
// never on a stream that is not a terminal.
import type { WriteStream } from 'node:tty';
import { describe, expect, it } from 'vitest';
import { spyOnOutput } from './output-spy.ts';
import { progressBar } from '../../src/cli/progress.ts';

function fakeTerminal() {
  const stream = {
    isTTY: true,
    columns: 80,
    text: '',
    write(s: string) {
      stream.text += s;
      return true;
    },
  };
  return stream;
}

describe('progressBar', () => {
  it('stays silent for the first second, then draws the fraction done', () => {
    const terminal = fakeTerminal();
    let now = 0;
    const bar = progressBar(terminal as unknown as WriteStream, 1000, () => now);
    now = 999;
    bar.update(0.3);
    expect(terminal.text).toBe('');
    now = 1001;
    bar.update(0.42);
    expect(terminal.text).toMatch(/simulating \[.*\] 42%/);
    bar.stop();
  });
  it('draws nothing without a terminal: not a byte to stdout or stderr', () => {
    const writes = spyOnOutput();
    try {
      const bar = progressBar(undefined, 0, () => 5000);
      bar.update(0.5);
      bar.stop();
    } finally {
      writes.restore();
    }
    expect(writes.calls).toEqual([]);
  });
});
