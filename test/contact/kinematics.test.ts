// The contact's frames from their own generated code (src/contact/kinematics.ts)
// against the model's own evaluation: at random states of a tree with contacts
// (a free box with a capsule arm, a free ball; both solve forms) the frames'
// R, r, v, w are the very numbers derivatives() computes, and a ContactRun
// that reads them writes the same contact wrenches as one that evaluates the
// whole model for them, bit for bit. A four-bar whose coupler's frame a
// Newton block solves has no such code, and its run evaluates the model.
import { describe, expect, it } from 'vitest';
import { ContactScene, Mechanism, compile } from 'kron';
import { ContactRun } from '../../src/contact/run.ts';
import { frameKinematics } from '../../src/contact/kinematics.ts';
import { CompiledModel } from '../../src/codegen/compiled.ts';
import { rng } from '../structure/helpers.ts';
import { scene } from './forms-scene.ts';

const frameNames = (b: string) => [
  ...[1, 2, 3].flatMap((i) => [1, 2, 3].map((j) => `${b}.frame_a.R[${i}][${j}]`)),
  ...['r', 'v', 'w'].flatMap((q) => [1, 2, 3].map((i) => `${b}.frame_a.${q}[${i}]`)),
];

describe.each(['torn', 'relaxed'] as const)('the contact frames by their own code (%s)', (mode) => {
  const mech = scene();
  const compiled = compile(mech, { mode });
  const contact = ContactScene.of(mech);
  const names = contact.bodies.flatMap(frameNames);
  const random = rng(32);
  const states = Array.from({ length: 8 }, () => {
    const x = compiled.x0().map((v) => v + (random() - 0.5) * 0.4);
    return x;
  });

  it('are made from the compiled plan and compute what derivatives() computes, bit for bit', () => {
    const kin = frameKinematics(compiled, names);
    if (typeof kin === 'string') throw new Error(kin);
    expect(kin.from).toBe('compiled');
    const state = compiled.createState();
    for (const x of states) {
      state.normalize(x);
      state.derivatives(0.1, x, new Float64Array(x.length));
      kin.run(0.1, x, state.u, state.p);
      expect(Array.from(kin.slots, (k) => kin.w[k])).toEqual(names.map((n) => state.signal(n)));
    }
  });

  it('give the same contact wrenches as the whole model evaluated for them', () => {
    const runs = (['kinematics', 'model'] as const).map((frames) => {
      const state = compiled.createState();
      return { state, run: new ContactRun(contact, state, frames) };
    });
    expect(typeof runs[0].run.kinematics).toBe('object');
    let touching = 0;
    for (const x of states) {
      for (const { run } of runs) run.apply(0.1, x);
      touching += runs[0].run.contacts.count;
      expect(Array.from(runs[0].state.u)).toEqual(Array.from(runs[1].state.u));
    }
    expect(touching).toBeGreaterThan(0);
  });
});

// the four-bar of mechanisms/fourbar.ts (tilted: its position loop solved by Newton), a ball on its coupler over the ground
function fourbarWithBall(): Mechanism {
  const m = new Mechanism('fourbar-ball');
  const look = { diameter: 0.05, density: 7700 };
  const j1 = m.revolute('j1', { axis: [1, 0, 0], q: 0, qd: 5, state: true });
  const b1 = m.bodyCylinder('b1', { r: [0, 0.5, 0.1], ...look });
  const j2 = m.spherical('j2', { cut: true });
  const ground = m.bar('ground', { r: [1.2, 0, 0] });
  const guide = m.rotation('guide', { axis: [0, 0, 1], angle: 0.3 });
  const j4 = m.prismatic('j4', { axis: [1, 0, 0], q: -0.2 });
  const b2 = m.bodyCylinder('b2', { r: [0, 0.2, 0], ...look });
  const j3 = m.universal('j3', {
    axes: [
      [0, 1, 0],
      [0, 0, 1],
    ],
  });
  const b3 = m.bodyCylinder('b3', { r: [-1, 0.3, 0.1], ...look });
  const ball = m.body('ball', {
    m: 0.1,
    I: [1e-4, 1e-4, 1e-4],
    collision: [{ shape: { type: 'sphere', radius: 0.3 }, material: { stiffness: 1e4, damping: 10, friction: 0.5 } }],
  });
  m.ground({ point: [0, 0.1, 0], normal: [0, 1, 0] });
  m.connect(m.world.frame_b, j1.frame_a);
  m.connect(j1.frame_b, b1.frame_a);
  m.connect(b1.frame_b, j2.frame_a);
  m.connect(m.world.frame_b, ground.frame_a);
  m.connect(ground.frame_b, guide.frame_a);
  m.connect(guide.frame_b, j4.frame_a);
  m.connect(j4.frame_b, b2.frame_a);
  m.connect(b2.frame_b, j3.frame_a);
  m.connect(j3.frame_b, b3.frame_a);
  m.connect(b3.frame_b, j2.frame_b);
  m.connect(b3.frame_a, ball.frame_a);
  return m;
}

it('a frame solved in a loop: no code of its own, the whole model evaluated for it, the same wrenches', () => {
  const mech = fourbarWithBall();
  const compiled = compile(mech, { mode: 'torn' });
  const contact = ContactScene.of(mech);
  const names = contact.bodies.flatMap(frameNames);
  expect(frameKinematics(compiled, names)).toMatch(/inside a block the plan solves/);
  const runs = (['kinematics', 'model'] as const).map((frames) => {
    const state = compiled.createState();
    return { state, run: new ContactRun(contact, state, frames) };
  });
  const x = compiled.x0();
  for (const { state, run } of runs) (state.derivatives(0, x, new Float64Array(x.length)), run.apply(0, x));
  expect(runs[0].run.contacts.count).toBeGreaterThan(0);
  expect(Array.from(runs[0].state.u)).toEqual(Array.from(runs[1].state.u));
});

it('a model rebuilt from its portable form (no plan): the whole model evaluated for the frames', () => {
  const mech = scene();
  const compiled = compile(mech);
  const rebuilt = new CompiledModel(compiled.portable());
  const contact = ContactScene.of(mech);
  expect(frameKinematics(rebuilt, contact.bodies.flatMap(frameNames))).toMatch(/carries no plan/);
  const runs = [compiled, rebuilt].map((c) => {
    const state = c.createState();
    return { state, run: new ContactRun(contact, state) };
  });
  const x = compiled.x0();
  for (const { run } of runs) run.apply(0, x);
  expect(runs[0].run.contacts.count).toBeGreaterThan(0);
  expect(Array.from(runs[1].state.u)).toEqual(Array.from(runs[0].state.u));
});
