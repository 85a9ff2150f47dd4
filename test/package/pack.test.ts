// Kron as a new user gets it, outside this repository: `npm pack` (which
// builds dist/ through the prepare script), the tarball installed into a
// fresh temporary folder whose package.json names kron alone (its
// dependencies come from the registry, npm's cache first; tsx is there only
// as kron's own dependency), then
//   1. npx kron --help, npx kron --version, and built-in commands with tsx removed
//   2. kron simulate (node_modules/.bin/kron, what npx runs) of a model module in that folder importing from 'kron'
//   3. a plain .mjs script importing compile/simulate, its acceleration against the closed form
//   4. tsc --strict --noEmit (module nodenext) of a consumer .ts file against the shipped types
//   5. kron view model.ts: the page, its models and its worker, 'kron' resolved without Node-only code
//   8. kron examples: the list, one copied into the folder and run there with npx tsx;
//      kron check before typescript is installed says to install it
//   9. kron check once it is: a model module's types against the shipped declarations
//   6. a web app's bundle (esbuild, platform browser) of 'kron' and 'kron/browser': the browser condition
//      (after installing the optional peers three and uplot, as such an app does)
// and what a compile-and-simulate user does not get: three.js, uPlot and the
// Redis queue's packages are optional peers (the page is shipped bundled), and
// a queued sweep without them says what to install.
// Slow (a build and three installs): the suite's backstop of 10 minutes (vitest.config.ts) for each test,
// none of their own.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ellipticK } from '../oracles/torque-free.ts';
import { distIsCurrent } from '../../scripts/build-inputs.mjs';

const root = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string> };
const work = mkdtempSync(join(tmpdir(), 'kron-pack-'));
const app = join(work, 'app');

// the pendulum of mechanisms/pendulum.ts: (m L^2 + Izz) qdd = -m g L cos(q), gravity along -y
const P = { m: 1.5, L: 0.4, Izz: 0.02, q0: 0.7 };
const G = 9.80665;
const closedForm = (q: number) => (-P.m * G * P.L * Math.cos(q)) / (P.m * P.L ** 2 + P.Izz);

const MODEL = `import { Mechanism } from 'kron';

export const parameters = ${JSON.stringify(P)};

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  const q = { ...parameters, ...p };
  const mech = new Mechanism('pendulum');
  const j1 = mech.revolute('j1', { axis: [0, 0, 1], q: q.q0 });
  const link = mech.body('link', { m: q.m, rcm: [q.L, 0, 0], I: [q.Izz / 10, q.Izz, q.Izz] });
  mech.connect(mech.world.frame_b, j1.frame_a);
  mech.connect(j1.frame_b, link.frame_a);
  return mech;
}
`;

const SCRIPT = `import { Mechanism, compile, simulate } from 'kron';

const { m, L, Izz, q0 } = ${JSON.stringify(P)};
const mech = new Mechanism('pendulum');
const j1 = mech.revolute('j1', { axis: [0, 0, 1], q: q0 });
const link = mech.body('link', { m, rcm: [L, 0, 0], I: [Izz / 10, Izz, Izz] });
mech.connect(mech.world.frame_b, j1.frame_a);
mech.connect(j1.frame_b, link.frame_a);
for (const mode of ['torn', 'relaxed']) {
  const result = simulate(compile(mech, { mode }), { stop: 0, step: 1e-3, signals: ['der(j1.qd)'] });
  console.log(mode, result.final('der(j1.qd)'));
}
`;

const CONSUMER = `import { Mechanism, compile, simulate, KronError, type CompiledModel, type SimulationResult } from 'kron';
import { mountViewer, simulatePlayback, type ViewerHandle } from 'kron/browser';

const mech = new Mechanism('pendulum');
const j1 = mech.revolute('j1', { axis: [0, 0, 1], q: 0.3 });
const link = mech.body('link', { m: 1, rcm: [0.5, 0, 0], I: [0.001, 0.01, 0.01] });
mech.connect(mech.world.frame_b, j1.frame_a);
mech.connect(j1.frame_b, link.frame_a);
const compiled: CompiledModel = compile(mech, { mode: 'relaxed' });
const result: SimulationResult<'j1.q'> = simulate(compiled, { stop: 1, step: 1e-3, signals: ['j1.q'] });
export const q: number = result.final('j1.q');
// @ts-expect-error 'j1.qd' was not recorded: signal names are typed
result.final('j1.qd');
export function show(element: HTMLElement): ViewerHandle {
  const { result: run, playback } = simulatePlayback(mech, compiled, { stop: 1, step: 1e-3 });
  return mountViewer(element, { model: 'pendulum', ...run.toJSON(), ...playback }, { autoplay: false });
}
export const isKronError = (e: unknown): boolean => e instanceof KronError;
`;

/** npm's own variables of an enclosing `npm test` stay out of the nested npm runs */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
}

function run(command: string, args: string[], cwd: string) {
  const r = spawnSync(command, args, { cwd, env: cleanEnv(), encoding: 'utf8', timeout: 300_000 });
  const output = `$ ${command} ${args.join(' ')}\n${r.stdout}\n${r.stderr}`;
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, output };
}

// --no: never fetch a missing package; --: the rest is the command's own (npx would take --help and --version)
const npx = (...args: string[]) => run('npx', ['--no', '--', ...args], app);
// what npx runs, without npm's own start-up (~0.5 s of CPU a call): the package's bin in node_modules/.bin.
// Test 1 and the getting-started guide (test 7) run npx itself, as the user types it.
const bin = (command: string, ...args: string[]) => run(join(app, 'node_modules/.bin', command), args, app);
const OFFLINE_FRIENDLY = ['--prefer-offline', '--no-audit', '--no-fund'];
/** how long a server may take to print its URL: a backstop for one that never does, not a guess of how long it takes */
const URL_WAIT = 300_000;
let tarball = '';

beforeAll(() => {
  const packDir = join(work, 'pack');
  mkdirSync(packDir);
  // npm pack builds dist/ (the prepare script) unless the last build was of these very sources:
  // npm ci has just built it in CI, and a build costs ~17 s of CPU (scripts/build-inputs.mjs)
  const packed = run('npm', ['pack', '--pack-destination', packDir, ...(distIsCurrent() ? ['--ignore-scripts'] : [])], root);
  expect(packed.status, packed.output).toBe(0);
  tarball = join(
    packDir,
    readdirSync(packDir).find((f) => f.endsWith('.tgz'))!,
  );
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'kron-user', private: true, type: 'module' }, null, 2));
  const installed = run('npm', ['install', tarball, ...OFFLINE_FRIENDLY], app);
  expect(installed.status, installed.output).toBe(0);
  writeFileSync(join(app, 'model.ts'), MODEL);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm pack, installed into a fresh folder', () => {
  it('ships dist/, bin, mechanisms and the LICENSE, and no TypeScript sources or bench/', () => {
    const listing = run('tar', ['-tzf', tarball], work)
      .stdout.split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ''));
    for (const f of [
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/cli/check.js',
      'dist/src/api.js',
      'dist/viewer/browser.js',
      'dist/viewer/page/index.html',
      'bin/kron.mjs',
      'mechanisms/pendulum.ts',
      'mechanisms/puma560.urdf',
      'examples/pendulum.ts',
      'examples/urdf-pd.ts',
      'LICENSE',
      'README.md',
    ]) {
      expect(listing, f).toContain(f);
    }
    expect(listing.filter((f) => f.startsWith('src/') || f.startsWith('bench/') || f.startsWith('test/'))).toEqual([]);
    // the user's folder names kron alone: tsx is only kron's own dependency
    const user = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(user.dependencies)).toEqual(['kron']);
    // the page bundled at build time: kron view serves it without three.js and uPlot
    for (const f of ['dist/viewer/bundle/app.js', 'dist/viewer/bundle/worker.js', 'dist/viewer/bundle/app.css']) expect(listing, f).toContain(f);
  });

  it('0. the optional peers are not installed; a queued sweep says what to install (exit 2)', () => {
    for (const p of ['three', 'uplot', 'bullmq', 'ioredis']) expect(existsSync(join(app, 'node_modules', p)), p).toBe(false);
    writeFileSync(join(app, 'queue.key'), 'ab'.repeat(32), { mode: 0o600 });
    const r = bin(
      'kron',
      'sweep',
      'model.ts',
      '--grid',
      'j1.q=0,1',
      '--stop',
      '0.01',
      '--queue',
      'redis://127.0.0.1:1',
      '--key-file',
      'queue.key',
      '--out',
      'q.csv',
    );
    expect(r.status, r.output).toBe(2);
    expect(r.stderr).toContain('needs the package bullmq, which is not installed');
    expect(r.stderr).toContain('npm install bullmq ioredis');
  });

  it('1. npx kron --help and --version; built-in commands run without tsx', () => {
    const help = npx('kron', '--help');
    expect(help.status, help.output).toBe(0);
    expect(help.stdout).toContain('usage: kron <command>');
    const version = npx('kron', '--version');
    expect(version.status, version.output).toBe(0);
    expect(version.stdout).toBe(`${pkg.version}\n`);
    // tsx out of the way: the built CLI and a .mjs model module need no TypeScript loader
    const tsx = join(app, 'node_modules/tsx');
    expect(existsSync(tsx)).toBe(true);
    writeFileSync(join(app, 'model.mjs'), MODEL.replace('p: Partial<typeof parameters> = {}): Mechanism', 'p = {})'));
    renameSync(tsx, `${tsx}.away`);
    try {
      const r = bin('kron', 'compile', 'model.mjs', '--json');
      expect(r.status, r.output).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ model: 'pendulum', states: 2 });
    } finally {
      renameSync(`${tsx}.away`, tsx);
    }
  });

  it("2. kron simulate model.ts (a model module importing from 'kron'): qdd at t = 0 is the closed form", () => {
    const r = bin('kron', 'simulate', 'model.ts', '--stop', '0.01', '--signals', 'j1.q,der(j1.qd)');
    expect(r.status, r.output).toBe(0);
    // not a word on stderr: tsx's IPC connection, made as it loaded, once read as the model going to the network
    expect(r.stderr).toBe('');
    const [header, first] = r.stdout.trim().split('\n');
    expect(header).toBe('time,j1.q,der(j1.qd)');
    const [t, q, qdd] = first.split(',').map(Number);
    expect([t, q]).toEqual([0, P.q0]);
    expect(Math.abs(qdd - closedForm(P.q0))).toBeLessThan(1e-12 * Math.abs(closedForm(P.q0)));
    // --set reaches the builder: another start angle, another closed-form acceleration
    const other = bin('kron', 'simulate', 'model.ts', '--stop', '0', '--set', 'q0=-1.2', '--signals', 'der(j1.qd)');
    expect(other.status, other.output).toBe(0);
    expect(Number(other.stdout.trim().split('\n')[1].split(',')[1])).toBeCloseTo(closedForm(-1.2), 12);
    // the second run of the module is served from the compile cache
    const again = bin('kron', 'compile', 'model.ts');
    expect(again.stdout).toMatch(/from the compile cache/);
  });

  it('3. a plain .mjs script imports compile and simulate: torn and relaxed print the closed-form acceleration', () => {
    writeFileSync(join(app, 'accel.mjs'), SCRIPT);
    const r = run(process.execPath, ['accel.mjs'], app);
    expect(r.status, r.output).toBe(0);
    const printed = Object.fromEntries(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(' '))
        .map(([mode, v]) => [mode, Number(v)]),
    );
    const want = closedForm(P.q0);
    expect(Object.keys(printed)).toEqual(['torn', 'relaxed']);
    for (const v of Object.values(printed)) expect(Math.abs(v - want)).toBeLessThan(1e-12 * Math.abs(want));
  });

  it('8. kron examples lists the examples; one copied into the folder runs with tsx and measures the exact period', () => {
    const list = bin('kron', 'examples');
    expect(list.status, list.output).toBe(0);
    expect(list.stdout).toMatch(/^fourbar +a crank-rocker four-bar linkage/);
    expect(list.stdout).toMatch(/\nurdf-pd +a two-link arm read from URDF text/);
    const copied = bin('kron', 'examples', 'pendulum');
    expect(copied.status, copied.output).toBe(0);
    expect(readFileSync(join(app, 'pendulum.ts'), 'utf8')).toBe(readFileSync(join(root, 'examples/pendulum.ts'), 'utf8'));
    const r = bin('tsx', 'pendulum.ts');
    expect(r.status, r.output).toBe(0);
    // the rod of 1 kg and 1 m, pivot inertia m L^2 / 3, 0.1 rad either side: 4 sqrt(Ip / (m g d)) K(sin^2(0.05))
    const exact = 4 * Math.sqrt(1 / 3 / (9.80665 * 0.5)) * ellipticK(Math.sin(0.05) ** 2);
    expect(Number(/measured period +(\d\.\d+) s/.exec(r.stdout)?.[1])).toBeCloseTo(exact, 6);
    // TypeScript is an optional peer, not installed yet (test 4 installs it): kron check says what to install
    const check = bin('kron', 'check', 'model.ts');
    expect(check.status, check.output).toBe(2);
    expect(check.stderr).toContain('UsageError: kron check needs the package typescript, which is not installed');
    expect(check.stderr).toContain('npm install --save-dev typescript');
  });

  it("4. tsc --strict --noEmit (module nodenext) of a consumer of 'kron' and 'kron/browser' against the shipped types", () => {
    const typescript = `typescript@${pkg.devDependencies.typescript.replace(/^[\^~]/, '')}`;
    const installed = run('npm', ['install', '--save-dev', typescript, ...OFFLINE_FRIENDLY], app);
    expect(installed.status, installed.output).toBe(0);
    writeFileSync(join(app, 'consumer.ts'), CONSUMER);
    // and a mistake, in a file of its own, so that one tsc run (~6 s of CPU) checks both: the check is real
    writeFileSync(join(app, 'mistake.ts'), `import { q } from './consumer.js';\nexport const wrong: string = q;\n`);
    // no skipLibCheck: Kron's declarations are checked too; no @types/node: they must not need it
    const tsconfig = {
      compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [] },
      files: ['consumer.ts', 'mistake.ts'],
    };
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    const r = bin('tsc', '-p', '.');
    expect(r.status, r.output).not.toBe(0);
    // tsc prints every error of the program, one a line: the mistake's is the only one, so consumer.ts and
    // Kron's declarations type-check as they would alone (their errors would be lines of their own)
    const errors = r.stdout.split('\n').filter((l) => / error TS\d+:/.test(l));
    expect(errors, r.output).toHaveLength(1);
    expect(errors[0]).toMatch(/^mistake\.ts\(2,14\): error TS2322: Type 'number' is not assignable to type 'string'\./);
  });

  it('9. kron check type-checks a model module against the shipped declarations, then builds and compiles it', () => {
    // typescript is installed now (test 4)
    const good = bin('kron', 'check', 'model.ts');
    expect(good.status, good.output).toBe(0);
    expect(good.stdout).toMatch(/^model\.ts: types ok, built and compiled: \d+ equations, 2 states/);
    const text = MODEL.replace('q: q.q0', "q: 'zero'");
    writeFileSync(join(app, 'bad.ts'), text);
    const bad = bin('kron', 'check', 'bad.ts');
    expect(bad.status, bad.output).toBe(1);
    // the line and column of the string, from the text
    const before = text.slice(0, text.indexOf("q: 'zero'")).split('\n');
    expect(bad.stderr).toContain(`bad.ts:${before.length}:${before.at(-1)!.length + 1} Type 'string' is not assignable to type 'number'. (TS2322)`);
    expect(bad.stderr).toContain('ModelError: model module bad.ts does not type-check: 1 error, above');
  });

  it("5. kron view model.ts serves the page with a bundle in which 'kron' is the browser entry", async () => {
    // the installed bin itself (what npx runs), so that killing the child stops the server
    const server: ChildProcess = spawn(join(app, 'node_modules/.bin/kron'), ['view', 'model.ts', '--port', '0'], { cwd: app, env: cleanEnv() });
    try {
      const url = await new Promise<string>((ok, fail) => {
        let out = '';
        const timer = setTimeout(() => fail(new Error(`no URL from kron view after ${URL_WAIT / 1000} s: ${out}`)), URL_WAIT);
        server.stdout!.on('data', (d) => {
          out += d;
          const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
          if (m) (clearTimeout(timer), ok(m[0]));
        });
        server.stderr!.on('data', (d) => (out += d));
        server.on('exit', (code) => fail(new Error(`kron view exited with ${code}: ${out}`)));
      });
      const page = await (await fetch(url)).text();
      expect(page).toContain('<script type="module" src="app.js">');
      expect(await (await fetch(`${url}config.json`)).json()).toEqual({ run: null, live: 'model' });
      const js = await (await fetch(`${url}app.js`)).text();
      expect(js.length).toBeGreaterThan(100_000); // three.js and the engine
      expect(js).not.toMatch(/node:(fs|path|module|child_process)/);
      // the user's model, listed for live mode in the model modules the server bundles on request
      const models = await (await fetch(`${url}models.js`)).text();
      expect(models).toContain('"model"');
      expect(models).not.toMatch(/node:(fs|path|module|child_process)/);
      // the compile worker, bundled with the page
      expect((await (await fetch(`${url}worker.js`)).text()).length).toBeGreaterThan(100_000);
      expect((await (await fetch(`${url}app.css`)).text()).length).toBeGreaterThan(0);
    } finally {
      server.kill();
    }
  });

  it('7. docs/guide/getting-started.md, as a new user follows it: every file and command on the page', async () => {
    const guide = readFileSync(join(root, 'docs/guide/getting-started.md'), 'utf8');
    const blocks = [...guide.matchAll(/```(\w+)(?: ([^\n]*))?\n([\s\S]*?)```/g)].map(([, lang, info = '', body]) => ({ lang, info, body }));
    const folder = join(work, 'guide');
    mkdirSync(folder);
    // step 1 (setup) is what beforeAll did: this folder shares the installed app's node_modules
    renameSync(join(app, 'node_modules'), join(folder, 'node_modules'));
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'my-arm', private: true, type: 'module' }));
    const outputs: string[] = [];
    try {
      expect(blocks.filter((b) => b.info === 'setup')).toHaveLength(1);
      for (const { lang, info, body } of blocks) {
        if (info.startsWith('file=')) writeFileSync(join(folder, info.slice(5)), body);
        else if (lang === 'sh' && info === 'server') {
          // a server runs until Ctrl-C: it must print its URL and serve the run
          const [command, ...args] = body.trim().split(/\s+/);
          expect(command).toBe('npx');
          const server = spawn(join(folder, 'node_modules/.bin', args[0]), args.slice(1).concat('--port', '0'), { cwd: folder, env: cleanEnv() });
          try {
            const url = await new Promise<string>((ok, fail) => {
              let out = '';
              const timer = setTimeout(() => fail(new Error(`no URL after ${URL_WAIT / 1000} s: ${out}`)), URL_WAIT);
              server.stdout!.on(
                'data',
                (d) => ((out += d), /http:\/\/127\.0\.0\.1:\d+\//.test(out) && (clearTimeout(timer), ok(/http:\/\/127\.0\.0\.1:\d+\//.exec(out)![0]))),
              );
              server.on('exit', (code) => fail(new Error(`${body.trim()} exited with ${code}: ${out}`)));
            });
            expect((await fetch(`${url}config.json`)).status).toBe(200);
          } finally {
            server.kill();
          }
        } else if (lang === 'sh' && info === '') {
          for (const line of body
            .trim()
            .split('\n')
            .filter((l) => l.trim() && !l.startsWith('#'))) {
            const r = run('sh', ['-c', line], folder);
            expect(r.status, r.output).toBe(0);
            // no warning: only the note of a file written
            expect(
              r.stderr.split('\n').filter((l) => l && !/^wrote \d+ samples of \d+ signals to /.test(l)),
              line,
            ).toEqual([]);
            outputs.push(r.stdout);
          }
        }
      }
    } finally {
      renameSync(join(folder, 'node_modules'), join(app, 'node_modules'));
    }
    // what the page says the runs show, against the closed form of the arm's rest:
    // kp (0.5 - q) = m g (0.5 m) cos q, solved by Newton here
    const rest = (kp: number) => {
      let q = 0.5;
      for (let k = 0; k < 50; k++) q -= (kp * (0.5 - q) - 2 * 9.80665 * 0.5 * Math.cos(q)) / (-kp + 2 * 9.80665 * 0.5 * Math.sin(q));
      return q;
    };
    const finalQ = (csv: string) => Number(csv.trim().split('\n').at(-1)!.split(',')[1]);
    const runs = outputs.filter((o) => o.startsWith('time,shoulder.q'));
    expect(runs).toHaveLength(2);
    expect(Math.abs(finalQ(runs[0]) - rest(200))).toBeLessThan(1e-6);
    expect(/q ≈ (\d\.\d+) rad/.exec(guide)?.[1]).toBe(rest(200).toFixed(4)); // the number the page quotes
    expect(Math.abs(finalQ(runs[1]) - rest(800))).toBeLessThan(1e-6);
    const printed = outputs.find((o) => o.startsWith('q at 2 s:'))!;
    expect(printed).toContain(`q at 2 s: ${rest(400).toFixed(4)} rad`);
    expect(printed).toContain(`torque at 2 s: ${(2 * 9.80665 * 0.5 * Math.cos(rest(400))).toFixed(3)} N m`);
  });

  it("6. a web app bundling 'kron' and 'kron/browser' for the browser gets no Node-only code", () => {
    // the viewer component's optional peers, as the app installs them
    const peers = run('npm', ['install', `three@${pkg.devDependencies.three}`, `uplot@${pkg.devDependencies.uplot}`, ...OFFLINE_FRIENDLY], app);
    expect(peers.status, peers.output).toBe(0);
    // esbuild as any bundler would run it, from the app's folder (kron's own dependency, hoisted)
    const bundle = `import { build } from 'esbuild';
await build({
  stdin: { contents: "import { Mechanism, compile } from 'kron'; import { mountViewer } from 'kron/browser'; console.log(Mechanism, compile, mountViewer);", resolveDir: process.cwd() },
  bundle: true, platform: 'browser', format: 'esm', outfile: 'app.js', logLevel: 'error',
});
`;
    writeFileSync(join(app, 'bundle.mjs'), bundle);
    const r = run(process.execPath, ['bundle.mjs'], app);
    expect(r.status, r.output).toBe(0);
    const js = readFileSync(join(app, 'app.js'), 'utf8');
    expect(js.length).toBeGreaterThan(100_000);
    expect(js).toContain('WebGLRenderer'); // the viewer component came along
    expect(js).not.toMatch(/node:(fs|path|module|child_process)|readFileSync/);
  });
});
