// The contact's frames from their own generated code (src/contact/kinematics.ts)
// against the model's own evaluation: at random states of a tree with contacts
// (a free box with a capsule arm, a free ball; both solve forms) the frames'
// R, r, v, w are the very numbers derivatives() computes, and a ContactRun
// that reads them writes the same contact wrenches as one that evaluates the
// whole model for them, bit for bit.
import { describe, expect, it } from 'vitest';
import { ContactScene, compile } from 'kron';
import { ContactRun } from '../../src/contact/run.ts';
import { frameKinematics } from '../../src/contact/kinematics.ts';
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
