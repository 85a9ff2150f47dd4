// What a run pays for before it computes anything: each command imports its
// own module when it runs (src/cli/main.ts), so `kron simulate` does not load
// the sweep's worker pool and Redis client, the viewer's bundler, the URDF
// parser for a model module, the progress bar without a terminal, or the
// scene's gl-matrix for a CSV result. A resolve hook lists what was imported.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const hook = join(root, 'test/cli/fixtures/log-imports.mjs');
// (esbuild is not among them: in the repository tsx runs the sources through it)
const HEAVY = ['piscina', 'bullmq', 'ioredis', 'fast-xml-parser', 'cli-progress', 'gl-matrix', 'three', 'mujoco'];
/** the sources of the other commands and of what a CSV run of a model module does not need */
const OTHERS = [
  'src/cli/bundle.ts',
  'src/cli/view.ts',
  'src/cli/worker.ts',
  'src/cli/bench.ts',
  'src/cli/linearize.ts',
  'src/sweep/',
  'src/io/urdf',
  'src/io/playback.ts',
];
/** what a run from the compile cache does without: the compiler and the library the model was built from */
const COMPILER = ['src/compile.ts', 'src/library/', 'src/structure/matching.ts', 'src/structure/blt.ts', 'src/structure/tearing.ts', 'src/codegen/generate.ts'];
/** tsx and what it loads to run the TypeScript sources */
const TSX = ['tsx', 'esbuild', 'get-tsconfig', 'resolve-pkg-maps'];

function imported(env: NodeJS.ProcessEnv, ...args: string[]): { status: number | null; packages: Set<string>; sources: string[]; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', hook, join(root, 'bin/kron.mjs'), ...args], { cwd: root, encoding: 'utf8', env });
  const urls = r.stderr
    .split('\n')
    .filter((l) => l.startsWith('import '))
    .map((l) => l.slice(7));
  const packages = new Set(urls.flatMap((u) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u)?.slice(1) ?? []));
  // the repository's CLI runs dist/ when it is fresh (bin/kron.mjs): its modules are named by their sources
  const sources = urls.flatMap((u) =>
    u.startsWith(`file://${root}src/`)
      ? [u.slice(`file://${root}`.length)]
      : u.startsWith(`file://${root}dist/src/`)
        ? [u.slice(`file://${root}dist/`.length).replace(/\.js$/, '.ts')]
        : [],
  );
  return { status: r.status, packages, sources, stderr: r.stderr };
}

describe('start-up imports', () => {
  it('kron simulate to CSV from the compile cache loads none of the other commands’ packages or sources', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-'));
    const env = { ...process.env, KRON_CACHE_DIR: join(dir, 'cache') };
    const args = ['simulate', 'mechanisms/pendulum.ts', '--stop', '0.01', '--out', join(dir, 'p.csv')];
    // the first run compiles, importing the model module and with it all of 'kron' (URDF parser, sweeps, scenes)
    const first = imported(env, ...args);
    expect(first.status, first.stderr).toBe(0);
    for (const source of OTHERS.filter((o) => o.startsWith('src/cli/')))
      expect(
        first.sources.filter((s) => s.startsWith(source)),
        source,
      ).toEqual([]);
    // the second is served from the cache: what a repeated run pays for
    const hit = imported(env, ...args);
    expect(hit.status, hit.stderr).toBe(0);
    expect(hit.sources).toContain('src/cli/model-commands.ts');
    expect(hit.packages.has('ode-rk4')).toBe(true); // the hook sees packages: the run did load its integrator
    for (const name of HEAVY) expect(hit.packages.has(name), name).toBe(false);
    for (const source of [...OTHERS, ...COMPILER])
      expect(
        hit.sources.filter((s) => s.startsWith(source)),
        source,
      ).toEqual([]);
  });
  it('kron --version loads no package but its own', () => {
    const run = imported(process.env, '--version');
    expect(run.status, run.stderr).toBe(0);
    expect([...run.packages].filter((p) => !TSX.includes(p))).toEqual([]);
    expect(run.sources.filter((s) => s.startsWith('src/cli/') && s !== 'src/cli/main.ts' && s !== 'src/cli/io.ts')).toEqual([]);
  });
  it('a URDF robot still loads its parser, and --help of every command still prints', () => {
    const urdf = imported(process.env, 'compile', 'mechanisms/puma560.urdf', '--json', '--no-cache');
    expect(urdf.status, urdf.stderr).toBe(0);
    expect(urdf.packages.has('fast-xml-parser')).toBe(true);
    for (const command of ['compile', 'simulate', 'linearize', 'sweep', 'worker', 'view', 'bench']) {
      const r = spawnSync(process.execPath, [join(root, 'bin/kron.mjs'), command, '--help'], { cwd: root, encoding: 'utf8' });
      expect(r.status, command).toBe(0);
      expect(r.stdout, command).toContain(`kron ${command}`);
    }
  });
});
