// bench/analysis-ab: forwardDerivatives of two checkouts in one process,
// interleaved (A, B, A, B... per round, src/bench/timing.ts), beside the
// forward call: what one change to the analytical tree derivatives did
// (issue 33), without the drift of two runs on a loaded machine. The other
// checkout is a path (e.g. a `git worktree add /tmp/old main` with
// node_modules linked); both compile the same model files. Known limits:
// mechanisms/*.ts import 'kron', which resolves to one checkout only, so the
// other side's PUMA and humanoid are not its own Mechanism (its method then
// says 'tangents: not a Mechanism'): only the iiwa (each side's own MJCF
// reader) compares fairly; and the subject timed second ran ~0.15-0.4 µs
// faster than the first with identical code here, so run both orders.
//
//   npx tsx bench/analysis-ab.ts --other /tmp/old [--rows iiwa,puma,humanoid] [--rounds 15] [--first old]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Subject, evalSubject, rng, timeRounds, warm } from '../src/bench/timing.ts';

const here = new URL('../', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    other: { type: 'string' },
    rows: { type: 'string', default: 'iiwa,puma,humanoid' },
    rounds: { type: 'string', default: '15' },
    // which side is timed first in each round (the position bias above)
    first: { type: 'string', default: 'new' },
  },
});
if (!values.other) throw new Error('--other <checkout> is required');

/** the compile function, MJCF reader and model builders of one checkout */
async function checkout(root: string) {
  const { compile } = await import(join(root, 'src/compile.ts'));
  const { mjcfMechanism, parseMjcf } = await import(join(root, 'src/io/mjcf.ts'));
  const puma = (await import(join(root, 'mechanisms/puma560.ts'))).default;
  const humanoid = (await import(join(root, 'mechanisms/humanoid.ts'))).default;
  const iiwa = () =>
    mjcfMechanism(parseMjcf(readFileSync(join(root, 'test/io/fixtures/mjcf/iiwa14.xml'), 'utf8'), 'iiwa14.xml'), { limitsAndFriction: false }).mechanism;
  const rows: Record<string, () => unknown> = { iiwa, puma: () => puma(), humanoid: () => humanoid() };
  return { compile, rows };
}

const mine = await checkout(here),
  other = await checkout(values.other);
const sides = values.first === 'old' ? { old: other, new: mine } : { new: mine, old: other };
for (const key of values.rows!.split(',')) {
  const fwd = mine.compile(mine.rows[key]());
  const subjects: [string, Subject][] = [['forward call', evalSubject(fwd, 1)]];
  let n = 0;
  for (const [name, side] of Object.entries(sides)) {
    const run = side.compile(side.rows[key](), { problem: 'inverse' }).inverseDynamics();
    n = run.n;
    const rand = rng(5),
      nn = () => new Float64Array(n * n);
    const out = { qdd: new Float64Array(n), dqdd_dq: nn(), dqdd_dqd: nn(), dqdd_dtau: nn() };
    const [q, qd, tau] = [0, 1, 2].map(() => new Float64Array(n));
    subjects.push([
      `forwardDerivatives, ${name} (${run.derivatives().method})`,
      {
        call: () => run.forwardDerivatives(q, qd, tau, 0, { out }),
        fresh: () => {
          for (const x of [q, qd, tau]) for (let i = 0; i < n; i++) x[i] = 2 * rand() - 1;
          return out.qdd[0];
        },
      },
    ]);
  }
  const t = timeRounds(
    subjects.map(([, s]) => warm(s, { minCalls: 4000, maxMs: 15000 })),
    Number(values.rounds),
  );
  const load = (await import('node:os')).loadavg().map((x) => x.toFixed(1));
  console.log(`\n${key}: n = ${n}, load ${load.join(' ')}; CPU µs per call, median (fastest) of ${values.rounds} interleaved rounds`);
  for (let i = 0; i < subjects.length; i++)
    console.log(`| ${subjects[i][0]} | ${t[i].us.toFixed(2)} (${t[i].min.toFixed(2)}) | ${(t[i].us / t[0].us).toFixed(2)} × forward |`);
}
