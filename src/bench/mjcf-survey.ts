// The MJCF test files surveyed (issue 31): for each file under
// test/io/fixtures/mjcf, what it uses (bodies, joints by type, nv, geoms by
// type, the features of the format), what Kron warned about, and the CPU time
// of loading it: parseMjcf + mjcfMechanism + compile (relaxed, torn) beside
// MuJoCo's MjModel.from_xml_string of the same text (its WebAssembly build).
//   cold   the first load in a fresh Node process (a child per file, per
//          subject, per round): what `kron compile robot.xml` pays without
//          its disk cache; V8 has not yet optimised Kron's compiler, and
//          MuJoCo's module is instantiated before the clock starts
//   warm   the median of --repeats more loads in that same process
// Both read the same text: includes put in place and mesh assets taken out
// (mujocoReadable: MuJoCo here has no file system, and the meshes' binary
// files are not in the repository; every body with a mesh has an
// <inertial>). CPU time is process.cpuUsage() (user + system, all threads:
// V8's background compiles count); the subjects run in interleaved rounds, a
// child of each in turn, and each column is the median over the rounds.
// MuJoCo C's own load time is not given: the native peer
// (/work/shared/peers/native/bench_mujoco_xml) times mj_forward and the like
// after mj_loadXML, not the load.
//
//   npm run bench:mjcf [-- --rounds 5 --repeats 5 --out bench/results]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compile, type Mode } from '../compile.ts';
import { SimulationError, UsageError } from '../errors.ts';
import { type MjcfRobot, mjcfMechanism, parseMjcf } from '../io/mjcf.ts';
import { type XmlNode, readMjcfXml } from '../io/mjcf-xml.ts';
import { PACKAGE_ROOT } from '../node/package.ts';
import { mujoco, mujocoReadable } from './mujoco.ts';
import { machine } from './report.ts';
import { cpuMicros } from './timing.ts';

const FIXTURES = join(PACKAGE_ROOT, 'test/io/fixtures/mjcf');
const SUBJECTS = ['kron-relaxed', 'kron-torn', 'mujoco'] as const;
type Subject = (typeof SUBJECTS)[number];

const ms = () => cpuMicros() / 1000;
const median = (a: readonly number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];

/** a file's text with a reader for its includes, relative to its folder (as MuJoCo reads them) */
function source(file: string): { text: string; readFile: (name: string) => string | undefined; included: Set<string> } {
  const included = new Set<string>();
  const readFile = (name: string) => {
    const path = resolve(dirname(file), name);
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return undefined;
    included.add(name);
    return readFileSync(path, 'utf8');
  };
  return { text: readFileSync(file, 'utf8'), readFile, included };
}

export interface Survey {
  file: string;
  model: string;
  bodies: number;
  joints: Record<string, number>;
  nv: number;
  geoms: Record<string, number>;
  /** the format's features the file uses, each with its count */
  features: string[];
  warnings: string[];
}

const NV: Record<string, number> = { hinge: 1, slide: 1, ball: 3, free: 6 };

/** tallies of a list by key, in first-seen order */
function tally(keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}

// (path of an MJCF file) => what it uses and what Kron warned about
export function survey(file: string): Survey {
  const { text, readFile, included } = source(file);
  const name = file.slice(file.lastIndexOf('/') + 1);
  const robot = parseMjcf(text, name, { readFile });
  const { warnings } = mjcfMechanism(robot);
  const bodies: MjcfRobot['bodies'] = [];
  const walk = (b: MjcfRobot['bodies'][number]) => (bodies.push(b), b.children.forEach(walk));
  robot.bodies.forEach(walk);
  const joints = bodies.flatMap((b) => b.joints);
  const root = readMjcfXml(text, name, readFile);
  const all: XmlNode[] = [];
  const each = (e: XmlNode) => (all.push(e), e.children.forEach(each));
  each(root);
  const count = (test: (e: XmlNode) => boolean) => all.filter(test).length;
  const childrenOf = (section: string) => all.filter((e) => e.tag === section).flatMap((e) => e.children).length;
  const xmlBodies = all.filter((e) => e.tag === 'body');
  const features: [string, number][] = [
    ['<inertial>', count((e) => e.tag === 'inertial')],
    ['fullinertia', count((e) => e.tag === 'inertial' && e.attrs.fullinertia !== undefined)],
    ['inertia from geoms', xmlBodies.filter((b) => !b.children.some((c) => c.tag === 'inertial') && b.children.some((c) => c.tag === 'geom')).length],
    ['default classes', count((e) => e.tag === 'default' && e.attrs.class !== undefined)],
    ['childclass', count((e) => e.attrs.childclass !== undefined)],
    ['includes', included.size],
    ['armature', joints.filter((j) => j.armature !== 0).length],
    ['damping', joints.filter((j) => j.damping !== 0).length],
    ['stiffness', joints.filter((j) => j.stiffness !== 0).length],
    ['frictionloss', joints.filter((j) => j.frictionloss !== 0).length],
    ['range', joints.filter((j) => j.range).length],
    ['tendons', childrenOf('tendon')],
    ['actuators', childrenOf('actuator')],
    ['equality', childrenOf('equality')],
    ['keyframes', count((e) => e.tag === 'key')],
  ];
  return {
    file: name,
    model: robot.name,
    bodies: bodies.length,
    joints: tally(joints.map((j) => j.type)),
    nv: joints.reduce((n, j) => n + NV[j.type], 0),
    geoms: tally([...robot.worldGeoms, ...bodies.flatMap((b) => b.geoms)].map((g) => g.type)),
    features: features.filter(([, n]) => n > 0).map(([f, n]) => `${f} ${n}`),
    warnings,
  };
}

/** CPU ms of the first load in this process and the median of `repeats` more */
async function loads(file: string, subject: Subject, repeats: number): Promise<{ cold: number; warm: number }> {
  const { text, readFile } = source(file);
  const xml = mujocoReadable(text, readFile);
  let load: () => void;
  if (subject === 'mujoco') {
    const mj = await mujoco();
    load = () => mj.MjModel.from_xml_string(xml).delete();
  } else {
    const mode = subject.slice('kron-'.length) as Mode;
    load = () => void compile(mjcfMechanism(parseMjcf(xml, file)).mechanism, { mode });
  }
  const time = () => {
    const t0 = ms();
    load();
    return ms() - t0;
  };
  const cold = time();
  return { cold, warm: median(Array.from({ length: repeats }, time)) };
}

/** one subject's load of one file in a fresh process */
function child(file: string, subject: Subject, repeats: number): { cold: number; warm: number } {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', subject, '--file', file, '--repeats', String(repeats)], {
    cwd: PACKAGE_ROOT,
    encoding: 'utf8',
  });
  const m = /^loads (\S+) (\S+)$/m.exec(r.stdout);
  if (r.status !== 0 || !m) {
    throw new SimulationError(
      `loading ${file} (${subject}) in a fresh process failed (exit ${r.status}): ${r.stderr.trim().split('\n').slice(-3).join(' / ')}`,
      {
        component: file,
        hint: `run it alone to see all of it: npx tsx src/bench/mjcf-survey.ts --child ${subject} --file ${file}`,
      },
    );
  }
  return { cold: Number(m[1]), warm: Number(m[2]) };
}

const count = (t: Record<string, number>) =>
  Object.entries(t)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
const f1 = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1));

function markdown(surveys: readonly Survey[], times: Map<string, Record<Subject, { cold: number; warm: number }>>, rounds: number, repeats: number): string {
  const m = machine();
  return [
    '# MJCF test files: what they use, what Kron warned about, load + compile time',
    '',
    `Written by \`npm run bench:mjcf\` (src/bench/mjcf-survey.ts) on ${m.date}, ${m.cpu} (${m.nproc} cores), Node ${m.node}.`,
    '',
    '| file | model | bodies | joints | nv | geoms | uses | Kron warnings |',
    '|---|---|---:|---|---:|---|---|---:|',
    ...surveys.map(
      (s) => `| ${s.file} | ${s.model} | ${s.bodies} | ${count(s.joints)} | ${s.nv} | ${count(s.geoms)} | ${s.features.join(', ')} | ${s.warnings.length} |`,
    ),
    '',
    "Kron's warnings, file by file (what affects the dynamics and is not modelled, or not read):",
    '',
    ...surveys.flatMap((s) => [`- **${s.file}**${s.warnings.length ? '' : ': none'}`, ...s.warnings.map((w) => `  - ${w}`)]),
    '',
    `Load + compile, CPU ms (process.cpuUsage(), all threads), median of ${rounds} interleaved rounds. *Cold*: the first load in a fresh Node process`,
    `(a child per file, subject and round; MuJoCo's WebAssembly module instantiated before the clock starts). *Warm*: the median of ${repeats} more loads in that process.`,
    'Kron: parseMjcf + mjcfMechanism + compile in the mode named. MuJoCo: MjModel.from_xml_string (its WebAssembly build, parse and compile) of the same text',
    "(includes in place, mesh assets out). MuJoCo C's own load is not timed: the native peer bench_mujoco_xml times mj_forward and the like, not mj_loadXML.",
    '',
    '| file | nv | Kron relaxed, cold | Kron torn, cold | MuJoCo, cold | Kron relaxed, warm | Kron torn, warm | MuJoCo, warm |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...surveys.map((s) => {
      const t = times.get(s.file)!;
      return `| ${s.file} | ${s.nv} | ${f1(t['kron-relaxed'].cold)} | ${f1(t['kron-torn'].cold)} | ${f1(t.mujoco.cold)} | ${f1(t['kron-relaxed'].warm)} | ${f1(t['kron-torn'].warm)} | ${f1(t.mujoco.warm)} |`;
    }),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      repeats: { type: 'string', default: '5' },
      out: { type: 'string', default: join(PACKAGE_ROOT, 'bench/results') },
      child: { type: 'string' },
      file: { type: 'string' },
    },
  });
  const repeats = Number(values.repeats),
    rounds = Number(values.rounds);
  if (!(Number.isInteger(rounds) && rounds >= 1 && Number.isInteger(repeats) && repeats >= 1)) {
    throw new UsageError(`--rounds ${values.rounds} and --repeats ${values.repeats} must be whole numbers from 1`, { hint: 'e.g. --rounds 5 --repeats 5' });
  }
  if (values.child) {
    if (!SUBJECTS.includes(values.child as Subject) || !values.file)
      throw new UsageError(`--child ${values.child} needs one of ${SUBJECTS.join(', ')} and --file`, {
        hint: 'the survey starts its children itself: npm run bench:mjcf',
      });
    const { cold, warm } = await loads(values.file, values.child as Subject, repeats);
    console.log(`loads ${cold} ${warm}`);
    return;
  }
  const files = readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.xml'))
    .sort()
    .map((f) => join(FIXTURES, f));
  const surveys = files.map(survey);
  const samples = new Map(files.map((f) => [f, Object.fromEntries(SUBJECTS.map((s) => [s, { cold: [] as number[], warm: [] as number[] }]))]));
  for (let r = 0; r < rounds; r++) {
    for (const file of files) {
      for (const subject of SUBJECTS) {
        const t = child(file, subject, repeats);
        samples.get(file)![subject].cold.push(t.cold);
        samples.get(file)![subject].warm.push(t.warm);
      }
    }
    process.stderr.write(`round ${r + 1} of ${rounds}\n`);
  }
  const times = new Map(
    surveys.map((s, i) => [
      s.file,
      Object.fromEntries(
        SUBJECTS.map((sub) => {
          const x = samples.get(files[i])![sub];
          return [sub, { cold: median(x.cold), warm: median(x.warm) }];
        }),
      ) as Record<Subject, { cold: number; warm: number }>,
    ]),
  );
  const md = markdown(surveys, times, rounds, repeats);
  mkdirSync(values.out, { recursive: true });
  writeFileSync(join(values.out, 'mjcf-survey.md'), md);
  console.log(md);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
