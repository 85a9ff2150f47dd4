// bench/refusals: what refusing a hostile input costs, in CPU time. The
// tests check what is refused and with which message, and count work where
// a count says it (test/sim/events/bouncing-ball.test.ts: the Zeno guard
// stops in fewer evaluations than a run to the stop time); a speed is a
// measurement, so it is here and not in a test:
//   - an MJCF file of n nested bodies: refused at the first element nested
//     too deep by a scan linear in the text (src/io/mjcf-xml.ts, tooDeep),
//     before the XML reader builds anything (test/io/mjcf-hostile.test.ts);
//   - the Zeno ball (mechanisms/bouncing-ball.ts, e = 0.5, no rest speed):
//     stopped by the event guard near its accumulation time, 1.35 s of 3.
// CPU of the process, the median of 5 repeats after one to warm up.
// A Markdown table, and bench/results/refusals.json (npm run docs:bench
// shows it in docs/performance/benchmarks.md). Run: npm run bench:refusals
import { compile } from '../src/compile.ts';
import { cpuMicros } from '../src/bench/timing.ts';
import { parseMjcf } from '../src/io/mjcf-parse.ts';
import { simulate } from '../src/sim/simulate.ts';
import build from '../mechanisms/bouncing-ball.ts';
import { writeBenchResult } from './results.ts';

const REPEATS = 5;

// (what to run) => the median CPU ms of REPEATS runs after a warm-up, and what the last run returned
function cpuMs<T>(f: () => T): { ms: number; last: T } {
  let last = f();
  const times: number[] = [];
  for (let k = 0; k < REPEATS; k++) {
    const t0 = cpuMicros();
    last = f();
    times.push((cpuMicros() - t0) / 1000);
  }
  return { ms: times.sort((a, b) => a - b)[REPEATS >> 1], last };
}

// (a thunk that must throw) => the message it threw
function refusedWith(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message.split('\n')[0];
  }
  throw new Error('expected a refusal, got a result');
}

interface Row {
  input: string;
  size: string;
  work: string;
  ms: number;
  refusal: string;
}

const rows: Row[] = [];
for (const n of [1e3, 1e4, 1e5]) {
  const text = `<mujoco><worldbody>${Array.from({ length: n }, (_, i) => `<body name="b${i}"><joint/>\n`).join('')}${'</body>'.repeat(n)}</worldbody></mujoco>`;
  const { ms, last } = cpuMs(() => refusedWith(() => parseMjcf(text, 'robot.xml')));
  rows.push({ input: `MJCF, ${n} nested bodies`, size: `${(text.length / 1024).toFixed(0)} kB`, work: '–', ms, refusal: last });
}
const zeno = compile(build({ e: 0.5, restVelocity: 0 }));
for (const integrator of ['rk4', 'adaptive'] as const) {
  let evaluations = 0;
  const { ms, last } = cpuMs(() => {
    evaluations = 0;
    return refusedWith(() => simulate(zeno, { stop: 3, step: 1e-3, integrator, controller: () => void evaluations++ }));
  });
  rows.push({
    input: `Zeno ball, ${integrator}`,
    size: 'stop 3 s, step 1 ms',
    work: `${evaluations} evaluations`,
    ms,
    refusal: last.slice(0, last.indexOf(' (')),
  });
}

const COLUMNS = [{ label: 'input' }, { label: 'size' }, { label: 'work' }, { label: 'ms CPU', align: 'right' }, { label: 'refused with' }] as const;
const cells = (r: Row) => [r.input, r.size, r.work, r.ms.toFixed(3), `\`${r.refusal.replaceAll('|', '\\|')}\``];
console.log(`| ${COLUMNS.map((c) => c.label).join(' | ')} |`);
for (const r of rows) console.log(`| ${cells(r).join(' | ')} |`);
console.log(`wrote ${writeBenchResult({ name: 'refusals', command: 'npm run bench:refusals', columns: [...COLUMNS], rows: rows.map(cells), raw: rows })}`);
