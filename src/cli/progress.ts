// A progress bar on stderr for simulations that run longer than a second
// (cli-progress), only on a terminal, so that scripts and tests see no bar.
import type { SingleBar } from 'cli-progress';
import { createRequire } from 'node:module';
import type { WriteStream } from 'node:tty';

// loaded when a bar is drawn: a run without a terminal should not pay for loading cli-progress
const newBar = (options: ConstructorParameters<typeof SingleBar>[0]): SingleBar => {
  const { SingleBar: Bar } = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
  return new Bar(options);
};

export interface Progress {
  /** fraction done, 0..1 (a sweep's bar: runs done) */
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
      bar = newBar({ stream, format: 'simulating [{bar}] {percentage}% | {eta_formatted} left', hideCursor: true, clearOnComplete: true });
      bar.start(100, percent);
    },
    stop() {
      bar?.stop();
    },
  };
}

/** a sweep's bar: runs done of all, runs per second and the time left; drawn at once, only on a terminal */
export function sweepBar(stream: WriteStream | undefined, total: number, now = () => performance.now()): Progress {
  if (!stream) return NONE;
  const start = now();
  const bar = newBar({ stream, format: 'sweep [{bar}] {value}/{total} runs | {rate} runs/s | {eta_formatted} left', hideCursor: true, clearOnComplete: true });
  bar.start(total, 0, { rate: '0' });
  return {
    update(done) {
      const rate = done / Math.max(1e-3, (now() - start) / 1000);
      bar.update(done, { rate: rate < 10 ? rate.toFixed(2) : rate.toFixed(0) });
    },
    stop() {
      bar.stop();
    },
  };
}
