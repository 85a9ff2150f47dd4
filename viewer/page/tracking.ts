// Which body the camera follows (kron view --track, key t, window.kron.track)
// from run to run, and a note when a run has no body of that name; follow.ts
// finds the bodies and moves the camera.
import type { PlaybackRun } from '../../src/io/types.ts';
import { bodyFrame, bodyNames, firstMovingBody } from './follow.ts';

/** what the tracker needs of the 3D view */
interface TrackingView {
  track(frame: number | undefined): void;
  render(): void;
}

export class BodyTracker {
  /** the body the camera follows now */
  following: string | undefined;
  /** the body --track named, tried again by key t */
  private requested: string | undefined;

  constructor(
    private readonly view: TrackingView,
    private readonly note: (text: string) => void,
    private readonly status: (text: string) => void,
  ) {}

  /** --track: follow this body from the first run on */
  request(body: string | undefined): void {
    this.following = this.requested = body;
  }

  /** the pose set of the followed body in this run; a body it does not have is noted, and not followed */
  frameIn(next: PlaybackRun): number | undefined {
    if (this.following === undefined || !next.scene) return undefined;
    const frame = bodyFrame(next.scene, this.following);
    if (frame === undefined) {
      const bodies = bodyNames(next.scene);
      this.note(`no body ${this.following} to follow in ${next.model}: its bodies are ${bodies.slice(0, 12).join(', ')}${bodies.length > 12 ? ', …' : ''}`);
      this.following = undefined;
    }
    return frame;
  }

  /** the camera follows this body (undefined: it stays where it is); false when the run has no such body */
  track(run: PlaybackRun | undefined, body: string | undefined): boolean {
    const frame = body === undefined || !run?.scene ? undefined : bodyFrame(run.scene, body);
    this.following = frame === undefined ? undefined : body;
    this.view.track(frame);
    this.view.render();
    return body === undefined || frame !== undefined;
  }

  /** key t: follow the selected body, or the one --track named, or the first that moves; or stop following */
  toggle(run: PlaybackRun | undefined, selected: string | undefined): void {
    if (this.following !== undefined || !run?.scene || !run.poses) {
      this.track(run, undefined);
      return this.status('');
    }
    const scene = run.scene;
    const body = [selected, this.requested].find((b) => b !== undefined && bodyFrame(scene, b) !== undefined) ?? firstMovingBody(scene, run.poses);
    if (body === undefined) this.status('no body moves in this run: nothing to follow (select one in the model tree)');
    else if (this.track(run, body)) this.status(`the camera follows ${body} (t stops)`);
  }
}
