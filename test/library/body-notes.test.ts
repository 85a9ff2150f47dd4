// A body given a mass but no inertia I is a point mass: allowed, but a rigid
// body whose I was forgotten looks the same, so the compile report's
// diagnostics (the CLI's warnings) say so, naming the body; I: [0, 0, 0]
// says a point mass on purpose, and a body with its I gets no note.
import { describe, expect, it } from 'vitest';
import { Mechanism } from '../../src/library/multibody/index.ts';
import { compile } from '../../src/compile.ts';

function pendulum(I?: [number, number, number]): Mechanism {
  const m = new Mechanism('p');
  const j = m.revolute('j', { axis: [0, 0, 1] });
  const b = m.body('link', { m: 1, rcm: [0.5, 0, 0], ...(I && { I }) });
  m.connect(m.world.frame_b, j.frame_a);
  m.connect(j.frame_b, b.frame_a);
  return m;
}

describe('a body without inertia', () => {
  it('is named in the compile report, with the two ways to say what is meant', () => {
    const notes = compile(pendulum(), { mode: 'torn' }).report.diagnostics.filter((d) => d.startsWith('body '));
    expect(notes).toEqual([
      'body link has a mass but no inertia I: it is a point mass at its centre of mass (give I: [Ixx, Iyy, Izz] about the centre of mass, or I: [0, 0, 0] for a point mass on purpose)',
    ]);
  });

  it('given I, or I: [0, 0, 0] on purpose, has no note', () => {
    for (const I of [
      [0.01, 0.02, 0.02],
      [0, 0, 0],
    ] as [number, number, number][]) {
      expect(compile(pendulum(I), { mode: 'relaxed' }).report.diagnostics.filter((d) => d.startsWith('body '))).toEqual([]);
    }
  });
});
