// Which body the viewer's camera follows, and how (viewer/page/follow.ts),
// in node: a body by name (or the component it is in), the first body that
// moves over a run (a fixed base is passed over; none when nothing moves),
// and the camera and its target moved by exactly the body's displacement,
// so that the offset between them and the body stays what it was.
import * as THREE from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { simulatePlayback } from '../../src/io/playback.ts';
import type { PlaybackFields } from '../../src/io/types.ts';
import { Mechanism } from '../../src/library/multibody/mechanism.ts';
import { CameraFollow, bodyFrame, bodyNames, firstMovingBody } from '../../viewer/page/follow.ts';

/**
 * A base body fixed to the world, then a double pendulum (start angle q0 of
 * its first joint) of BodyCylinders b1, b2 (their bodies b1.body, b2.body):
 * b1 turns about its own frame's origin, b2's origin swings with b1's end
 */
function pendulumOnBase(q0: number): Mechanism {
  const m = new Mechanism('based');
  const base = m.body('base', { m: 5, I: [1, 1, 1] });
  const j1 = m.revolute('j1', { axis: [0, 0, 1], q: q0 });
  const b1 = m.bodyCylinder('b1', { r: [0.5, 0, 0] });
  const j2 = m.revolute('j2', { axis: [0, 0, 1] });
  const b2 = m.bodyCylinder('b2', { r: [0.5, 0, 0] });
  m.connect(m.world.frame_b, base.frame_a);
  m.connect(m.world.frame_b, j1.frame_a);
  m.connect(j1.frame_b, b1.frame_a);
  m.connect(b1.frame_b, j2.frame_a);
  m.connect(j2.frame_b, b2.frame_a);
  return m;
}

function playback(m: Mechanism): PlaybackFields {
  const compiled = compile(m, { mode: 'torn' });
  return simulatePlayback(m, compiled, { stop: 0.3, step: 1e-3, interval: 0.01 }).playback!;
}

describe('the body to follow', () => {
  it('a body by name, or by the component it is in; undefined for none', () => {
    const { scene } = playback(pendulumOnBase(0.5));
    expect(bodyNames(scene)).toEqual(['base', 'b1.body', 'b2.body']);
    const at = (member: string) => scene.frames.findIndex((f) => f.members.includes(member));
    expect(bodyFrame(scene, 'base')).toBe(at('base.frame_a'));
    expect(bodyFrame(scene, 'b1')).toBe(at('b1.body.frame_a'));
    expect(bodyFrame(scene, 'b1.body')).toBe(at('b1.body.frame_a'));
    expect(bodyFrame(scene, 'b')).toBeUndefined();
  });

  it('the first body whose origin moves: b2, not the fixed base nor b1 turning about its origin; none while the pendulum hangs at rest', () => {
    const swinging = playback(pendulumOnBase(0.5));
    expect(firstMovingBody(swinging.scene, swinging.poses)).toBe('b2.body');
    // hanging straight down (gravity along -y, the rods along x turned by -π/2): nothing moves
    const resting = playback(pendulumOnBase(-Math.PI / 2));
    expect(firstMovingBody(resting.scene, resting.poses)).toBeUndefined();
  });
});

describe('the camera following a body', () => {
  const setup = () => {
    const camera = new THREE.PerspectiveCamera();
    camera.position.set(3, 2, 10);
    // what CameraFollow uses of OrbitControls: its target, and update() to look at it
    const controls = { target: new THREE.Vector3(1, 0, 0), update: () => camera.lookAt(controls.target) };
    return { camera, controls, follow: new CameraFollow(camera, controls as unknown as OrbitControls) };
  };

  it('keeps the offset of camera and target to the body as it moves; centring moves the target onto the body first', () => {
    const { camera, controls, follow } = setup();
    const body = new THREE.Vector3(0.5, 1, -1);
    follow.start(7, body, false);
    expect(follow.frame).toBe(7);
    expect(camera.position.toArray()).toEqual([3, 2, 10]); // nothing moves until the body does
    const offset = camera.position.clone().sub(body),
      targetOffset = controls.target.clone().sub(body);
    for (const p of [
      [0.5, -3, -1],
      [2, -10, 4],
      [2, -10, 4],
    ]) {
      body.set(p[0], p[1], p[2]);
      follow.moved(body.clone());
      expect(camera.position.clone().sub(body).distanceTo(offset)).toBeLessThan(1e-12);
      expect(controls.target.clone().sub(body).distanceTo(targetOffset)).toBeLessThan(1e-12);
    }
    // centred: the target on the body, the camera as far from it as it was from the target
    const away = camera.position.clone().sub(controls.target);
    follow.start(7, body, true);
    expect(controls.target.distanceTo(body)).toBeLessThan(1e-12);
    expect(camera.position.clone().sub(body).distanceTo(away)).toBeLessThan(1e-12);
    // stopped: the camera stays
    follow.stop();
    const still = camera.position.clone();
    follow.moved(new THREE.Vector3(100, 100, 100));
    expect(camera.position.equals(still)).toBe(true);
    expect(follow.frame).toBeUndefined();
  });
});
