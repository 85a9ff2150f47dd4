// One robot scene of bench/contact-robots.ts run alone, for profiling
// (node --cpu-prof --import tsx) and for its counts: the CPU time of the
// run (process.cpuUsage(), warm: the run before it discarded), the
// integrator's statistics, and the contact's share of the evaluations.
//
//   npx tsx bench/contact-robots/profile.ts go2|humanoid [--stop s] [--mode torn|relaxed] [--rounds n] [--integrator auto|radau]
//     [--jacobian contact|differences] [--friction regularised|elasto-plastic]
import { parseArgs } from 'node:util';
import { simulate } from '../../src/index.ts';
import { UsageError } from '../../src/errors.ts';
import { type Go2, go2Kron } from './go2.ts';
import { type Humanoid, humanoidKron } from './humanoid.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    stop: { type: 'string' },
    mode: { type: 'string', default: 'torn' },
    rounds: { type: 'string', default: '1' },
    integrator: { type: 'string', default: 'auto' },
    jacobian: { type: 'string', default: 'contact' },
    friction: { type: 'string', default: 'regularised' },
  },
});
const which = positionals[0];
if (which !== 'go2' && which !== 'humanoid') throw new UsageError(`scene ${which} is not go2 or humanoid`, { hint: 'e.g. profile.ts go2 --stop 2' });
const mode = values.mode === 'relaxed' ? 'relaxed' : 'torn';
const friction = values.friction === 'elasto-plastic' ? 'elasto-plastic' : 'regularised';
const scene: Go2 | Humanoid = which === 'go2' ? go2Kron({ mode, friction }) : humanoidKron({ mode, friction });
const stop = Number(values.stop ?? (which === 'go2' ? 10 : 5));
const runOf = (s: Go2 | Humanoid) =>
  simulate(s.compiled, {
    stop,
    interval: stop,
    signals: [],
    contact: s.contact,
    integrator: values.integrator === 'radau' ? 'radau' : 'auto',
    jacobian: values.jacobian === 'differences' ? 'differences' : 'contact',
    ...('controller' in s && { controller: s.controller, start: s.start }),
  });
const run = () => runOf(scene);
run();
for (let r = 0; r < Number(values.rounds); r++) {
  const t = process.cpuUsage();
  const result = run();
  const d = process.cpuUsage(t);
  const cpu = (d.user + d.system) / 1e6;
  console.log(
    `${which} ${mode} ${friction} ${stop} s: ${cpu.toFixed(3)} CPU s, ${(cpu / stop).toFixed(4)} per simulated s; ${JSON.stringify(result.integration)}`,
  );
}
