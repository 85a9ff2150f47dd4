// The relaxing iteration leaves models whose relaxed form is exact alone
// (issue 19): the drive train (relaxing paper §5, eq. 12) and the PUMA 560
// relax into blocks that the elimination solves completely, with no remainder
// to iterate on, so relaxIterate compiles them to the same code as
// --mode relaxed and simulates them to the same numbers; the report says
// 'elimination' for their loops.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import type { Model } from '../../src/model/index.ts';
import drivetrain from '../../mechanisms/drivetrain.ts';
import puma560 from '../../mechanisms/puma560.ts';

function same(build: () => Model, stop: number, start: Record<string, number> = {}) {
  const relaxed = compile(build(), { mode: 'relaxed' });
  const iterated = compile(build(), { relaxIterate: true });
  expect(iterated.report.relaxedLoops.length).toBeGreaterThan(0);
  for (const loop of iterated.report.relaxedLoops) expect(loop).toMatchObject({ remainder: 0, method: 'elimination' });
  expect(iterated.generated.body).toBe(relaxed.generated.body);
  const a = simulate(relaxed, { stop, step: 1e-3, interval: 0.01, start });
  const b = simulate(iterated, { stop, step: 1e-3, interval: 0.01, start });
  expect(b.iterations).toBeUndefined();
  for (const name of a.names) expect(b.get(name)).toEqual(a.get(name));
  return { a, torn: simulate(compile(build()), { stop, step: 1e-3, interval: 0.01, start }) };
}

describe('relaxIterate on models whose relaxed form is exact', () => {
  it('drive train: the same code and trajectory as --mode relaxed, and the torn form to 1e-12', () => {
    const { a, torn } = same(() => drivetrain(), 1);
    for (const name of a.names) a.get(name).forEach((v, s) => expect(Math.abs(torn.get(name)[s] - v)).toBeLessThan(1e-12 * (1 + Math.abs(v))));
  });

  it('PUMA 560: the same code and trajectory as --mode relaxed, and the torn form to 1e-9', () => {
    const { a, torn } = same(() => puma560(), 0.5, { 'j2.q': 0.3, 'j3.q': -0.4 });
    for (const name of a.names) a.get(name).forEach((v, s) => expect(Math.abs(torn.get(name)[s] - v)).toBeLessThan(1e-9 * (1 + Math.abs(v))));
  });
});
