// The viewer as a component of a web app's own page (`kron/browser`): a
// canvas filling the given element that plays a run (its scene and frame
// poses) with the viewer page's three.js scene and orbit camera, clocked by
// requestAnimationFrame. No controls and no CSS of its own: the app drives
// it through the handle (play, pause, seek, speed) and disposes of it.
import { UsageError } from '../../src/errors.ts';
import type { PlaybackRun } from '../../src/io/types.ts';
import { Player } from './player.ts';
import { SceneView } from './scene3d.ts';

/** how a mounted viewer starts */
export interface ViewerOptions {
  /** start playing at once (default true) */
  autoplay?: boolean;
  /** start again at the end (default true) */
  loop?: boolean;
  /** playback speed, 0.1 to 10 (default 1: real time) */
  speed?: number;
  /** draw every frame's axes (default false) */
  showFrames?: boolean;
  /** draw the joint axes (default true) */
  showJointAxes?: boolean;
  /** called with the playback time after it changed */
  onTime?: (time: number) => void;
}

/** a mounted viewer: its canvas, its clock, and what drives it */
export interface ViewerHandle {
  /** the canvas it draws on (inside the container) */
  readonly canvas: HTMLCanvasElement;
  /** the run's last sample time, s */
  readonly duration: number;
  /** the playback time now, s */
  readonly time: number;
  /** whether the clock runs */
  readonly playing: boolean;
  /** run the clock */
  play(): void;
  /** stop the clock where it is */
  pause(): void;
  /** show the run at this time (s) */
  seek(time: number): void;
  /** playback speed, 0.1 to 10 (1: real time) */
  setSpeed(speed: number): void;
  /** stop the clock, release WebGL and remove the canvas */
  dispose(): void;
}

/** (element, run of simulatePlayback or kron simulate --out run.json) => a playing view of it */
export function mountViewer(container: HTMLElement, run: PlaybackRun, options: ViewerOptions = {}): ViewerHandle {
  const { scene, poses } = run;
  if (!scene || !poses) {
    throw new UsageError(`the run of ${run.model} has no scene to draw`, {
      hint: 'record it with simulatePlayback(model, compiled, options), from a model with frames (a Mechanism)',
    });
  }
  // SceneView sizes the canvas to its parent: a box that fills the container
  const box = document.createElement('div');
  box.style.cssText = 'position: relative; width: 100%; height: 100%';
  const canvas = document.createElement('canvas');
  canvas.style.cssText = 'position: absolute; inset: 0; width: 100%; height: 100%; display: block';
  box.append(canvas);
  container.append(box);
  const view = new SceneView(canvas);
  view.showFrames = options.showFrames ?? false;
  view.showJointAxes = options.showJointAxes ?? true;
  view.load(scene, poses, run.time);
  const player = new Player(run.time);
  player.playing = options.autoplay ?? true;
  player.loop = options.loop ?? true;
  player.setSpeed(options.speed ?? 1);
  const moved = () => {
    view.setTime(player.time);
    options.onTime?.(player.time);
  };
  let last = performance.now();
  let frame = 0;
  const tick = (now: number) => {
    if (player.advance(Math.min(0.1, (now - last) / 1000))) moved();
    last = now;
    view.render();
    frame = requestAnimationFrame(tick);
  };
  frame = requestAnimationFrame(tick);
  return {
    canvas,
    duration: player.duration,
    get time() {
      return player.time;
    },
    get playing() {
      return player.playing;
    },
    play: () => void (player.playing = true),
    pause: () => void (player.playing = false),
    seek: (t) => (player.seek(t), moved()),
    setSpeed: (s) => player.setSpeed(s),
    dispose: () => {
      cancelAnimationFrame(frame);
      view.dispose();
      box.remove();
    },
  };
}
