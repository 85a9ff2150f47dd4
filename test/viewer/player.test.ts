// The playback clock: real time times speed, looping or stopping at the end,
// stepping from sample to sample.
import { describe, expect, it } from 'vitest';
import { MAX_SPEED, MIN_SPEED, Player } from '../../viewer/page/player.ts';

const samples = Array.from({ length: 11 }, (_, k) => Number((k * 0.1).toPrecision(12))); // 0, 0.1, ..., 1

describe('Player', () => {
  it('advances by real time times speed; paused, it does not move', () => {
    const p = new Player(samples);
    expect(p.advance(0.25)).toBe(true);
    expect(p.time).toBeCloseTo(0.25, 12);
    p.setSpeed(4);
    p.advance(0.1);
    expect(p.time).toBeCloseTo(0.65, 12);
    p.playing = false;
    expect(p.advance(1)).toBe(false);
    expect(p.time).toBeCloseTo(0.65, 12);
  });

  it('loops past the end, or stops there and plays again from the start', () => {
    const p = new Player(samples);
    p.seek(0.9);
    p.advance(0.3);
    expect(p.time).toBeCloseTo(0.2, 12);
    p.loop = false;
    p.seek(0.9);
    p.advance(0.3);
    expect([p.time, p.playing]).toEqual([1, false]);
    p.toggle();
    expect([p.time, p.playing]).toEqual([0, true]);
  });

  it('steps to the next and previous sample, from on or between samples, clamped to the run', () => {
    const p = new Player(samples);
    p.seek(0.3);
    p.step(1);
    expect(p.time).toBe(0.4);
    p.seek(0.35);
    p.step(-1);
    expect(p.time).toBe(0.3);
    p.seek(0.35);
    p.step(1);
    expect(p.time).toBe(0.4);
    p.seek(0);
    p.step(-1);
    expect(p.time).toBe(0);
    p.seek(1);
    p.step(1);
    expect(p.time).toBe(1);
  });

  it('speed stays within 0.1x to 10x; seek stays within the run', () => {
    const p = new Player(samples);
    p.setSpeed(100);
    expect(p.speed).toBe(MAX_SPEED);
    p.setSpeed(0.001);
    expect(p.speed).toBe(MIN_SPEED);
    p.seek(-3);
    expect(p.time).toBe(0);
    p.seek(7);
    expect(p.time).toBe(1);
  });
});
