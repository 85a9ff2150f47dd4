// The scene of contact-forms.test.ts and kinematics.test.ts: a tree with
// contacts of every kind the narrow phase has (box, capsule, sphere on a
// plane), in two branches from the world.
import { Mechanism } from 'kron';

// a free box with a capsule arm on a revolute joint, and a free ball, over the ground (gravity -y)
export function scene(): Mechanism {
  const m = new Mechanism('contact-forms');
  const base = m.free('base', { r: [0, 0.1, 0] });
  const box = m.body('box', {
    m: 3,
    rcm: [0.02, 0, 0.01],
    I: [0.05, 0.08, 0.06, 0.001, 0, 0.002],
    collision: [{ shape: { type: 'box', size: [0.4, 0.2, 0.3] }, material: { stiffness: 2e4, damping: 40, friction: 0.8 } }],
  });
  const hinge = m.revolute('hinge', { axis: [0, 0, 1], q: 0.3 });
  const arm = m.body('arm', {
    m: 0.5,
    rcm: [0.25, 0, 0],
    I: [0.001, 0.01, 0.01],
    collision: [
      {
        shape: { type: 'capsule', radius: 0.04, length: 0.5 },
        offset: [0.25, 0, 0],
        orientation: [0, Math.SQRT1_2, 0, Math.SQRT1_2],
        material: { stiffness: 1e4, damping: 20, friction: 0.5 },
      },
    ],
  });
  const shoulder = m.bar('shoulder', { r: [0.2, 0, 0] });
  const free = m.free('fly', { r: [0.1, 0.3, 0] });
  const ball = m.body('ball', {
    m: 1,
    I: [0.004, 0.004, 0.004],
    collision: [{ shape: { type: 'sphere', radius: 0.1 }, material: { stiffness: 5e4, damping: 30, friction: 0.6, law: 'linear' } }],
  });
  m.ground({ material: { stiffness: 1e5, damping: 100, friction: 0.9 } });
  (m.connect(m.world.frame_b, base.frame_a), m.connect(base.frame_b, box.frame_a));
  (m.connect(box.frame_a, shoulder.frame_a), m.connect(shoulder.frame_b, hinge.frame_a), m.connect(hinge.frame_b, arm.frame_a));
  (m.connect(m.world.frame_b, free.frame_a), m.connect(free.frame_b, ball.frame_a));
  return m;
}
