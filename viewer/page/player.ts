// The playback clock: simulated time advanced by real time times speed
// (real time by default), stepping sample by sample, looping or stopping at
// the end. No DOM: the page drives it from requestAnimationFrame.
import { sampleBefore } from '../../src/io/poses.ts';

export const MIN_SPEED = 0.1;
export const MAX_SPEED = 10;

export class Player {
  time = 0;
  playing = true;
  speed = 1;
  loop = true;

  constructor(readonly samples: ArrayLike<number>) {}

  get duration(): number {
    return this.samples.length ? this.samples[this.samples.length - 1] : 0;
  }

  /** advance by dt seconds of real time; true if the time changed */
  advance(dt: number): boolean {
    if (!this.playing || this.duration <= 0) return false;
    let t = this.time + dt * this.speed;
    if (t > this.duration) {
      if (this.loop) t %= this.duration;
      else {
        t = this.duration;
        this.playing = false;
      }
    }
    this.time = t;
    return true;
  }

  seek(t: number): void {
    this.time = Math.min(this.duration, Math.max(0, t));
  }

  /** to the next (+1) or previous (-1) sample time */
  step(direction: 1 | -1): void {
    const s = this.samples,
      eps = 1e-9 * Math.max(1, this.duration);
    let k = sampleBefore(s, this.time);
    if (direction > 0) {
      while (k < s.length - 1 && s[k] <= this.time + eps) k++;
    } else {
      while (k > 0 && s[k] >= this.time - eps) k--;
    }
    this.time = s[k] ?? 0;
  }

  setSpeed(speed: number): void {
    this.speed = Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
  }

  /** play from the start when at the end of a non-looping run */
  toggle(): void {
    if (!this.playing && this.time >= this.duration) this.time = 0;
    this.playing = !this.playing;
  }
}
