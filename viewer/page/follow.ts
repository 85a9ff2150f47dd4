// A camera that follows a body (kron view --track body, key t): the body's
// frame moves, and the camera and its orbit target move by as much, so that
// the view keeps its offset to the body while orbiting, panning and zooming
// work as before (they change the offset). Which body: the one asked for,
// the one selected, or the first body whose origin moves over the run.
import * as THREE from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Poses, Scene } from '../../src/io/types.ts';
import { POSE_STRIDE } from '../../src/io/types.ts';

/** a body whose frame's origin moves by less than this fraction of the run's reach does not move */
const STILL = 1e-6;

/** the bodies the scene draws, in the model's order */
export function bodyNames(scene: Scene): string[] {
  return scene.shapes.filter((s) => s.kind === 'body').map((s) => s.name);
}

/**
 * The pose set of a body's frame_a, undefined when the scene has no body of
 * that name; a component with a body inside (b1 for b1.body of a
 * BodyCylinder) names its first one (as kron view --track, src/cli/view-track.ts)
 */
export function bodyFrame(scene: Scene, body: string): number | undefined {
  const bodies = scene.shapes.filter((s) => s.kind === 'body');
  return (bodies.find((s) => s.name === body) ?? bodies.find((s) => s.name.startsWith(`${body}.`)))?.frame;
}

// (scene, poses) => the first body whose frame's origin moves over the run, or undefined when none does
// (a body turning about its own origin, a fixed robot's first link, does not: following it would not move the camera)
export function firstMovingBody(scene: Scene, poses: Poses): string | undefined {
  const { frames, data } = poses;
  const samples = data.length / (frames * POSE_STRIDE);
  let reach = 0;
  for (const v of data) reach = Math.max(reach, Math.abs(v));
  const moves = (f: number) => {
    for (let k = 1; k < samples; k++) {
      const [a, b] = [f * POSE_STRIDE, (k * frames + f) * POSE_STRIDE];
      if (Math.hypot(data[b] - data[a], data[b + 1] - data[a + 1], data[b + 2] - data[a + 2]) > STILL * Math.max(reach, 1)) return true;
    }
    return false;
  };
  return bodyNames(scene).find((b) => moves(bodyFrame(scene, b)!));
}

export class CameraFollow {
  /** the pose set followed, or undefined */
  frame: number | undefined;
  /** where the followed frame was when the camera last moved with it */
  private readonly at = new THREE.Vector3();

  constructor(
    private readonly camera: THREE.Camera,
    private readonly controls: OrbitControls,
  ) {}

  /** follow the frame, now at p; centre: the target moves onto it first, the camera with it (same offset) */
  start(frame: number, p: THREE.Vector3, centre: boolean): void {
    this.frame = frame;
    if (centre) this.shift(p.clone().sub(this.controls.target));
    this.at.copy(p);
  }

  stop(): void {
    this.frame = undefined;
  }

  /** the followed frame is now at p: the camera and its target move by as much */
  moved(p: THREE.Vector3): void {
    if (this.frame === undefined || p.equals(this.at)) return;
    this.shift(p.clone().sub(this.at));
    this.at.copy(p);
  }

  private shift(d: THREE.Vector3): void {
    this.camera.position.add(d);
    this.controls.target.add(d);
    this.controls.update();
  }
}
