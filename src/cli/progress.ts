// A progress bar on stderr for simulations that run longer than a second
// (cli-progress), only on a terminal, so that scripts and tests see no bar.
import { SingleBar } from 'cli-progress';
import type { WriteStream } from 'node:tty';

export interface Progress {
  /** fraction done, 0..1 */
  update(fraction: number): void;
  /** removes the bar if one was drawn */
  stop(): void;
}

const NONE: Progress = { update: () => {}, stop: () => {} };

// (terminal stream or none, delay ms, clock) => a bar that appears once the run has lasted `delay`
export function progressBar(stream: WriteStream | undefined, delay = 1000, now = () => performance.now()): Progress {
  if (!stream) return NONE;
  const start = now();
  let bar: SingleBar | undefined;
  return {
    update(fraction) {
      if (!bar && now() - start < delay) return;
      const percent = Math.round(fraction * 100);
      if (bar) return bar.update(percent);
      bar = new SingleBar({ stream, format: 'simulating [{bar}] {percentage}% | {eta_formatted} left', hideCursor: true, clearOnComplete: true });
      bar.start(100, percent);
    },
    stop() {
      bar?.stop();
    },
  };
}
