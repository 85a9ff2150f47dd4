// The viewer's server: serves its page, bundle, config and the given run on
// 127.0.0.1 only, and nothing else (no way out of its routes).
import { request } from 'node:http';
import { connect } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ViewerServer, serveViewer } from '../../src/cli/view.ts';
import { main } from '../../src/cli/main.ts';
import { ModelError, UsageError } from '../../src/errors.ts';

interface Reply {
  status: number;
  type: string;
  body: string;
}

/** a raw request: the path goes out exactly as written (fetch would normalise "..") */
function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => ok({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
    });
    req.on('error', fail);
    req.end();
  });
}

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'kron-view-')));
const runFile = join(dir, 'run.json');
let server: ViewerServer;
const secret = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');

beforeAll(async () => {
  writeFileSync(runFile, JSON.stringify({ model: 'tiny', time: [0, 1], signals: { x: [0, 1] } }));
  server = await serveViewer({ run: runFile, port: 0 });
});
afterAll(() => server?.close());

describe('kron view server', () => {
  it('serves the page, its bundle, its config and the run byte for byte', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    const page = await get(server.port, '/');
    expect(page).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(page.body).toContain('<canvas id="scene">');
    const js = await get(server.port, '/app.js');
    expect(js.status).toBe(200);
    expect(js.body).toContain('WebGLRenderer'); // three.js is bundled in
    expect((await get(server.port, '/app.css')).body).toContain('.uplot');
    expect(JSON.parse((await get(server.port, '/config.json')).body)).toEqual({ run: 'run.json' });
    const run = await get(server.port, '/run.json?v=2');
    expect(run).toMatchObject({ status: 200, type: 'application/json' });
    expect(run.body).toBe(readFileSync(runFile, 'utf8'));
  });

  it('paths that climb out of the routes, encoded or not, are 404 and leak nothing', async () => {
    const attempts = [
      '/../package.json',
      '/%2e%2e/package.json',
      '/..%2fpackage.json',
      '/%2e%2e%2f%2e%2e%2fpackage.json',
      '/run.json/../package.json',
      '/./package.json',
      '//etc/passwd',
      '/..\\package.json',
      '/viewer/page/index.html',
      '/src/cli/view.ts',
      '/package.json',
      `/${runFile}`,
      '/app.js%00.html',
      'http://127.0.0.1/../package.json',
    ];
    for (const path of attempts) {
      const r = await get(server.port, path);
      expect(r.status, path).toBe(404);
      expect(r.body, path).toBe('not found\n');
    }
    expect(secret).toContain('"name": "kron"'); // the thing that must not leak does exist
  });

  it('answers 403 to a foreign Host (DNS rebinding) and 405 to anything but GET and HEAD', async () => {
    expect((await get(server.port, '/', { host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await get(server.port, '/', { host: `localhost:${server.port}` })).status).toBe(200);
    expect((await get(server.port, '/run.json', {}, 'POST')).status).toBe(405);
    expect((await get(server.port, '/run.json', {}, 'HEAD')).body).toBe('');
  });

  it('listens on the loopback interface only', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && a.family === 'IPv4' && !a.internal);
    for (const a of external) {
      const refused = await new Promise<boolean>((ok) => {
        const s = connect({ host: a!.address, port: server.port });
        s.on('connect', () => (s.destroy(), ok(false)));
        s.on('error', () => ok(true));
      });
      expect(refused, a!.address).toBe(true);
    }
  });

  it('without a run it serves live mode only: config says so and run.json is 404', async () => {
    const live = await serveViewer({ port: 0 });
    try {
      expect(JSON.parse((await get(live.port, '/config.json')).body)).toEqual({ run: null });
      expect((await get(live.port, '/run.json')).status).toBe(404);
    } finally {
      await live.close();
    }
  });

  it("with a model module (kron view model.ts) it bundles that model, which imports 'kron', and runs it live", async () => {
    const model = join(dir, 'swing.ts');
    writeFileSync(
      model,
      [
        "import { Mechanism } from 'kron';",
        'export default function build() {',
        "  const m = new Mechanism('swing');",
        "  const j = m.revolute('j', { axis: [0, 0, 1], q: 0.2 });",
        "  const b = m.body('b', { m: 2, rcm: [0.4, 0, 0] });",
        '  m.connect(m.world.frame_b, j.frame_a);',
        '  m.connect(j.frame_b, b.frame_a);',
        '  return m;',
        '}',
      ].join('\n'),
    );
    const live = await serveViewer({ model, port: 0 });
    try {
      expect(JSON.parse((await get(live.port, '/config.json')).body)).toEqual({ run: null, live: 'swing' });
      const js = (await get(live.port, '/app.js')).body;
      expect(js).not.toMatch(/node:(fs|path|child_process)/); // 'kron' resolved to the browser entry
      // the models, bundled on request: the model's name, and 'kron' read from the page's engine, not a second copy
      const models = (await get(live.port, '/models.js')).body;
      expect(models).toContain('"swing"');
      expect(models).toContain('globalThis.__kron');
      expect(models.length).toBeLessThan(js.length / 10);
    } finally {
      await live.close();
    }
  });

  it('a model module that needs Node is a ModelError naming what it imports; a missing file is a usage error', async () => {
    const model = join(dir, 'reads-files.ts');
    writeFileSync(model, "import { readFileSync } from 'node:fs';\nexport default () => readFileSync('x');\n");
    await expect(serveViewer({ model, port: 0 })).rejects.toThrow(ModelError);
    await expect(serveViewer({ model, port: 0 })).rejects.toThrow(/node:fs/);
    // a URDF or MJCF robot is simulated first and played: test/viewer/view-robot.test.ts
    expect(await main(['view', join(dir, 'nope.ts'), '--port', '0'])).toBe(2);
  });

  /** a run of a URDF robot whose scene shows these meshes (name as the URDF writes it -> the path the run recorded) */
  function urdfRun(name: string, urdf: string | undefined, meshes: Record<string, string | undefined>): string {
    const shape = (filename: string, file: string | undefined, k: number) => ({
      name: `l${k}`,
      kind: 'body',
      frame: 0,
      geometry: { shape: { type: 'mesh', filename, ...(file && { file }), radius: 0.05 }, color: '#888888' },
    });
    const scene = {
      gravity: [0, 0, -9.8],
      frames: [{ name: 'f', members: ['f'] }],
      world: -1,
      shapes: Object.entries(meshes).map(([n, f], k) => shape(n, f, k)),
      links: [],
      joints: [],
    };
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify({ model: 'm', time: [0], signals: {}, scene, ...(urdf && { source: { urdf } }) }));
    return file;
  }

  it("serves the meshes of a URDF robot's run, found again under the URDF's package root, each under a numbered route, and the URDF; no other file", async () => {
    const robot = join(dir, 'robot');
    mkdirSync(join(robot, 'meshes'), { recursive: true });
    writeFileSync(join(robot, 'meshes', 'part.stl'), 'solid part\nendsolid part\n');
    const urdf = join(robot, 'robot.urdf');
    writeFileSync(urdf, '<robot name="r"><link name="a"/></robot>');
    // the recorded paths do not matter: the third names package.json, which is not served
    const run = urdfRun('meshes', urdf, {
      'meshes/part.stl': join(robot, 'meshes/part.stl'),
      'package://robot/meshes/part.stl': undefined,
      'gone.stl': join(dir, '..', 'package.json'),
    });
    const other = await serveViewer({ run, port: 0 });
    try {
      const config = (await get(other.port, '/config.json')).body;
      expect(JSON.parse(config)).toEqual({
        run: 'run.json',
        urdf: 'model.urdf',
        meshes: { 'meshes/part.stl': 'mesh/0.stl', 'package://robot/meshes/part.stl': 'mesh/0.stl' },
        unserved: { 'gone.stl': 'not found next to the URDF' },
      });
      expect(config).not.toContain(dir); // no path of this machine
      expect(other.warnings).toEqual(['link l2: mesh "gone.stl" is not found next to the URDF, drawn as a placeholder sphere']);
      expect((await get(other.port, '/model.urdf')).body).toBe('<robot name="r"><link name="a"/></robot>');
      expect(await get(other.port, '/mesh/0.stl')).toMatchObject({ status: 200, type: 'model/stl', body: 'solid part\nendsolid part\n' });
      expect((await get(other.port, '/mesh/1.stl')).status).toBe(404);
      expect((await get(other.port, '/mesh/../package.json')).status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('a URDF whose meshes leave its root (a link to a secret, ../, file://, absolute) has none of them served, and kron view says why (was: the secret served)', async () => {
    const robot = join(dir, 'evil', 'urdf');
    mkdirSync(robot, { recursive: true });
    const secret = join(dir, 'secret.stl');
    writeFileSync(secret, 'the secret\n');
    symlinkSync(secret, join(robot, 'shadow.obj'));
    const urdf = join(robot, 'evil.urdf');
    writeFileSync(urdf, '<robot name="evil"><link name="a"/></robot>');
    const names = ['shadow.obj', '../../secret.stl', pathToFileURL(secret).href, secret, 'package://x/../../secret.stl'];
    // a run as the old kron wrote it: every recorded path leads to the secret
    const run = urdfRun('evil', urdf, Object.fromEntries(names.map((n) => [n, n === 'shadow.obj' ? join(robot, 'shadow.obj') : secret])));
    const other = await serveViewer({ run, port: 0 });
    try {
      const config = JSON.parse((await get(other.port, '/config.json')).body);
      expect(config.meshes).toBeUndefined();
      expect(config.unserved).toEqual(Object.fromEntries(names.map((n) => [n, "outside the URDF's package root, not served"])));
      expect(other.warnings).toHaveLength(5);
      expect(other.warnings[0]).toBe(
        `link l0: mesh "shadow.obj" resolves to ${secret} (${join(robot, 'shadow.obj')} is a symbolic link), outside the URDF's package root ${join(dir, 'evil')} where meshes must lie (ROS_PACKAGE_PATH adds package folders), drawn as a placeholder sphere`,
      );
      for (const route of ['/mesh/0.obj', '/mesh/0.stl', '/mesh/1.stl', '/mesh/4.stl']) expect((await get(other.port, route)).status, route).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('a run without its URDF (gone, or never recorded) has no mesh served: the recorded paths are not followed', async () => {
    const stl = join(dir, 'loose.stl');
    writeFileSync(stl, 'solid loose\n');
    for (const urdf of [join(dir, 'gone.urdf'), undefined]) {
      const other = await serveViewer({ run: urdfRun('no-urdf', urdf, { 'loose.stl': stl }), port: 0 });
      try {
        expect(JSON.parse((await get(other.port, '/config.json')).body)).toEqual({ run: 'run.json', unserved: { 'loose.stl': "the run's URDF is not here" } });
        expect((await get(other.port, '/mesh/0.stl')).status).toBe(404);
        expect(other.warnings).toEqual(urdf ? [`the run's URDF ${urdf} is not here: the robot is drawn without its meshes and cannot be posed`] : []);
      } finally {
        await other.close();
      }
    }
  });

  it('a served mesh replaced by a symbolic link after the start is not followed: 500 naming no path', async () => {
    const robot = join(dir, 'swap');
    mkdirSync(robot, { recursive: true });
    const mesh = join(robot, 'part.stl');
    writeFileSync(mesh, 'solid part\n');
    const urdf = join(robot, 'swap.urdf');
    writeFileSync(urdf, '<robot name="s"><link name="a"/></robot>');
    const other = await serveViewer({ run: urdfRun('swap', urdf, { 'part.stl': mesh }), port: 0 });
    try {
      expect((await get(other.port, '/mesh/0.stl')).body).toBe('solid part\n');
      rmSync(mesh);
      symlinkSync(new URL('../../package.json', import.meta.url).pathname, mesh);
      const r = await get(other.port, '/mesh/0.stl');
      expect(r).toMatchObject({ status: 500, body: 'could not read the file (ELOOP)\n' });
      rmSync(mesh);
      expect(await get(other.port, '/mesh/0.stl')).toMatchObject({ status: 500, body: 'could not read the file (ENOENT)\n' });
    } finally {
      await other.close();
    }
  });

  it("refuses requests from another site's page on every route (Origin, Sec-Fetch-Site: 403), and serves the page itself, its own fetches and direct navigation", async () => {
    const robot = join(dir, 'sites');
    mkdirSync(robot, { recursive: true });
    writeFileSync(join(robot, 'part.stl'), 'solid part\n');
    writeFileSync(join(robot, 'sites.urdf'), '<robot name="s"><link name="a"/></robot>');
    const other = await serveViewer({ run: urdfRun('sites', join(robot, 'sites.urdf'), { 'part.stl': undefined }), port: 0 });
    const routes = ['/', '/index.html', '/app.js', '/app.css', '/worker.js', '/models.js', '/config.json', '/run.json', '/model.urdf', '/mesh/0.stl'];
    const self = `http://127.0.0.1:${other.port}`;
    const forged: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' }, // a sandboxed frame or a file:// page
      { origin: `http://127.0.0.1:${other.port + 1}` }, // another server on this machine
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site', origin: self }, // either header suffices
      { 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' },
    ];
    const allowed: Record<string, string>[] = [
      {},
      { 'sec-fetch-site': 'none' },
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'same-origin', origin: self },
    ];
    try {
      for (const route of routes) {
        for (const headers of forged) {
          const r = await get(other.port, route, headers);
          expect(r.status, `${route} ${JSON.stringify(headers)}`).toBe(403);
          expect(r.body).toMatch(/^forbidden: a request from another site's page \((Origin|Sec-Fetch-Site): [^\n]*\)\n$/);
        }
        for (const headers of allowed) expect((await get(other.port, route, headers)).status, `${route} ${JSON.stringify(headers)}`).toBe(200);
      }
      // refused before anything else: an unknown path, a POST
      expect((await get(other.port, '/nope', { origin: 'https://evil.example' })).status).toBe(403);
      expect((await get(other.port, '/models.js', { 'sec-fetch-site': 'cross-site' }, 'POST')).status).toBe(403);
      expect((await get(other.port, '/', { host: `localhost:${other.port}`, origin: `http://localhost:${other.port}` })).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('--track body: config.json names it; a body the run or the model module has not is a UsageError naming it and its bodies', async () => {
    const scene = {
      gravity: [0, 0, -9.8],
      frames: [{ name: 'f', members: ['f'] }],
      world: -1,
      links: [],
      joints: [],
      shapes: ['base', 'arm.body'].map((name) => ({ name, kind: 'body', frame: 0, geometry: { shape: { type: 'sphere', radius: 0.1 }, color: '#888888' } })),
    };
    const file = join(dir, 'bodies.json');
    writeFileSync(file, JSON.stringify({ model: 'm', time: [0], signals: {}, scene }));
    // a body, or a component with a body inside (arm for arm.body)
    for (const track of ['base', 'arm']) {
      const tracked = await serveViewer({ run: file, port: 0, track });
      expect(JSON.parse((await get(tracked.port, '/config.json')).body)).toEqual({ run: 'run.json', track });
      await tracked.close();
    }
    const wrong = await serveViewer({ run: file, port: 0, track: 'bse' }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(UsageError);
    expect((wrong as UsageError).message).toBe(`--track bse: ${file} has no body bse`);
    expect((wrong as UsageError).details.hint).toBe('follow one of its bodies: base, arm.body');
    await expect(serveViewer({ run: runFile, port: 0, track: 'base' })).rejects.toThrow(/has no mechanism to follow \(a plot-only run\)/);
    // a model module is built to check (here a pendulum whose body is b)
    const model = join(dir, 'pendulum-b.ts');
    writeFileSync(
      model,
      [
        "import { Mechanism } from 'kron';",
        'export default function build() {',
        "  const m = new Mechanism('pendulum_b');",
        "  const j = m.revolute('j', { axis: [0, 0, 1] });",
        "  const b = m.body('b', { m: 1, rcm: [0.5, 0, 0] });",
        '  m.connect(m.world.frame_b, j.frame_a);',
        '  m.connect(j.frame_b, b.frame_a);',
        '  return m;',
        '}',
      ].join('\n'),
    );
    const live = await serveViewer({ model, port: 0, track: 'b' });
    expect(JSON.parse((await get(live.port, '/config.json')).body)).toEqual({ run: null, live: 'pendulum-b', track: 'b' });
    await live.close();
    await expect(serveViewer({ model, port: 0, track: 'c' })).rejects.toThrow(`--track c: ${model} has no body c`);
    expect(await main(['view', model, '--port', '0', '--track', 'c'])).toBe(2);
  });

  it('usage errors: a missing file, a file that is not a result, a port in use (unless a free one may be taken)', async () => {
    await expect(serveViewer({ run: join(dir, 'nope.json') })).rejects.toThrow(UsageError);
    const notRun = join(dir, 'not-run.json');
    writeFileSync(notRun, '{"hello": 1}');
    await expect(serveViewer({ run: notRun })).rejects.toThrow(/not a kron result/);
    await expect(serveViewer({ run: runFile, port: server.port })).rejects.toThrow(/in use/);
    const other = await serveViewer({ run: runFile, port: server.port, orFreePort: true });
    expect(other.port).not.toBe(server.port);
    await other.close();
    expect(await main(['view', runFile, '--port', 'x'])).toBe(2);
    expect(await main(['view', join(dir, 'nope.json'), '--port', '0'])).toBe(2);
  });
});
