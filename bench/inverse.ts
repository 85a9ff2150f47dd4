// bench/inverse: compiled inverse dynamics (compile(model, { problem:
// 'inverse' }), CompiledModel.inverse) against compiled forward dynamics
// (relaxed and torn, derivatives()) on the PUMA 560 and the chain, in
// interleaved rounds of CPU time (process.cpuUsage): every round times a
// batch of ~20 ms of CPU of each subject in turn, the order rotating; the
// table gives the median µs per evaluation (a fresh pseudo-random state
// before every batch), the report's op counts and the
// counted Newton-Euler yardstick's (test/oracles/rnea-counted.ts).
//
//   npm run bench:inverse                     # puma560, chain n = 64; 15 rounds
//   npm run bench:inverse -- --rows puma560,chain:8,chain:64 --rounds 21 --json
import { parseArgs } from 'node:util';
import { compile } from '../src/compile.ts';
import type { CompiledModel } from '../src/codegen/compiled.ts';
import type { OpCounts } from '../src/structure/costs.ts';
import type { Mechanism } from '../src/library/multibody/index.ts';
import chain, { parameters as chainParameters } from '../mechanisms/chain.ts';
import puma560 from '../mechanisms/puma560.ts';
import { rneaCounted } from '../test/oracles/rnea-counted.ts';
import { chainTree } from '../test/oracles/aba.ts';
import { pumaTree } from '../test/dynamics/cases.ts';
import type { RneaTree } from '../test/oracles/rnea.ts';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: 'puma560,chain:64' }, rounds: { type: 'string', default: '15' }, json: { type: 'boolean', default: false } },
});

interface Row {
  name: string;
  build: () => Mechanism;
  oracle: RneaTree;
}

function row(spec: string): Row {
  if (spec === 'puma560') return { name: 'puma560', build: () => puma560(), oracle: pumaTree(9.80665) };
  const m = /^chain:(\d+)$/.exec(spec);
  if (!m) throw new Error(`--rows: puma560 or chain:<n>, got ${spec}`);
  const n = Number(m[1]);
  return { name: `chain n = ${n}`, build: () => chain({ n }), oracle: chainTree(n, chainParameters) };
}

const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

interface Subject {
  label: string;
  ops: OpCounts;
  call: () => void;
  /** a new pseudo-random state before each batch (so that nothing can be kept from the last one) */
  fresh: () => void;
}

// (seed) => uniform on [-1, 1)
function uniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a * 1664525 + 1013904223) >>> 0;
    return a / 2 ** 31 - 1;
  };
}

/** inverse dynamics at a fixed pseudo-random state */
function inverseSubject(c: CompiledModel): Subject {
  const n = c.coordinates.length;
  const q = Float64Array.from({ length: n }, (_, i) => 0.3 * Math.sin(i + 1));
  const qd = Float64Array.from({ length: n }, (_, i) => Math.cos(i + 2));
  const qdd = Float64Array.from({ length: n }, (_, i) => Math.sin(2 * i + 3));
  const tau = new Float64Array(n);
  const run = c.inverseDynamics();
  const r = uniform(1);
  const fresh = () => {
    for (let i = 0; i < n; i++) {
      q[i] = Math.PI * r();
      qd[i] = 2 * r();
      qdd[i] = 5 * r();
    }
  };
  return { label: 'inverse', ops: c.report.ops, call: () => void run.evaluate(0, q, qd, qdd, tau), fresh };
}

/** forward dynamics (derivatives) at a fixed pseudo-random state near the start */
function forwardSubject(c: CompiledModel, label: string): Subject {
  const x0 = c.x0();
  const x = Float64Array.from(x0);
  const dx = new Float64Array(x.length);
  const state = c.createState();
  const r = uniform(2);
  const fresh = () => x.forEach((_, i) => (x[i] = x0[i] + Math.PI * r()));
  return { label, ops: c.report.ops, call: () => state.derivatives(0, x, dx), fresh };
}

/** calls in n, µs of CPU per call */
function batch(call: () => void, n: number): number {
  const t0 = cpuMicros();
  for (let i = 0; i < n; i++) call();
  return (cpuMicros() - t0) / n;
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const total = (o: OpCounts) => o.mul + o.add + o.div + o.fn;
const fmt = (o: OpCounts) => `${o.mul} mul ${o.add} add ${o.div} div ${o.fn} fn = ${total(o)}`;

const results = [];
for (const spec of values.rows.split(',')) {
  const r = row(spec.trim());
  const subjects = [
    inverseSubject(compile(r.build(), { problem: 'inverse' })),
    forwardSubject(compile(r.build(), { mode: 'relaxed' }), 'forward relaxed'),
    forwardSubject(compile(r.build(), { mode: 'torn' }), 'forward torn'),
  ];
  const nb = r.oracle.bodies.length;
  const oracle = rneaCounted(r.oracle, new Array(nb).fill(0.1), new Array(nb).fill(0.2), new Array(nb).fill(0.3)).ops;
  // warm-up: 20000 calls and at least 1 s of CPU each
  const calls = subjects.map((s) => {
    let n = 0;
    const t0 = cpuMicros();
    while (n < 20000 || cpuMicros() - t0 < 1e6) {
      s.call();
      n++;
    }
    return Math.max(50, Math.round(20000 / batch(s.call, 2000)));
  });
  const times: number[][] = subjects.map(() => []);
  const rounds = Number(values.rounds);
  for (let k = 0; k < rounds; k++) {
    for (let j = 0; j < subjects.length; j++) {
      const i = (j + k) % subjects.length; // rotating order
      subjects[i].fresh();
      times[i].push(batch(subjects[i].call, calls[i]));
    }
  }
  const us = times.map(median);
  results.push({ model: r.name, rounds, oracleRneaOps: oracle, subjects: subjects.map((s, i) => ({ label: s.label, usPerEval: us[i], ops: s.ops })) });
  if (!values.json) {
    console.log(`${r.name} (${rounds} interleaved rounds, median CPU µs per evaluation)`);
    subjects.forEach((s, i) => console.log(`  ${s.label.padEnd(16)} ${us[i].toFixed(3).padStart(9)} µs   ops ${fmt(s.ops)}`));
    console.log(`  ${'oracle RNEA'.padEnd(16)} ${''.padStart(9)}      ops ${fmt(oracle)} (counted, test/oracles/rnea-counted.ts)`);
  }
}
if (values.json) console.log(JSON.stringify(results, null, 2));
