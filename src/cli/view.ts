// `kron view [run.json | model.ts] [--port P]`: serves the viewer page with a
// result file, or with a model module for live mode, on 127.0.0.1. The
// server knows a fixed set of routes (the page, its bundled script and style,
// live mode's model modules (bundled again on each request) and its compile
// worker, its config, the run, a URDF robot's file and the meshes its scene
// names, each under a numbered route, found again under the URDF's package
// root: view-files.ts) and nothing else: no path from a request
// ever reaches the file system, so a request that climbs out (/../x,
// /%2e%2e/x) is a 404 like any unknown path. Requests whose Host is not
// this machine get 403 (a web page cannot reach the server by DNS rebinding),
// and so do requests another site's page makes (its Origin, or the browser's
// Sec-Fetch-Site): a page elsewhere could otherwise make the server bundle
// models.js again and again, or fetch the run into its own frames.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.ts';
import type { PlaybackRun } from '../io/types.ts';
import { rosPackagePath } from '../node/urdf-mesh.ts';
import { PAGE, bundleModels, bundleViewer } from './bundle.ts';
import { MESH_TYPES, readServed, runFiles } from './view-files.ts';
import { checkTrackInModel, checkTrackInRun } from './view-track.ts';
import { shipped } from '../node/package.ts';

export const HOST = '127.0.0.1';
export const DEFAULT_PORT = 8080;
/** how long kron view robot.urdf|xml simulates the robot before it plays the run (s) */
export const ROBOT_STOP = 5;

export const VIEW_USAGE = `usage: kron view [run.json | model.ts | robot.urdf | robot.xml] [--port P] [--track body]

Serves the three.js viewer on http://127.0.0.1:P (default ${DEFAULT_PORT}, or a free
port when that one is taken) with the result of \`kron simulate … --out run.json\`
loaded (and the mesh files its scene names, for a URDF robot's visuals). Given a
model module instead (.ts, .mts, .js, .mjs; it imports from 'kron'),
the page compiles and simulates that model live, in the browser; without a file, the
page runs the mechanisms of mechanisms/ live. --track body: the camera follows that
body (e.g. pelvis; the key t toggles following in the page). Given a URDF or MJCF
robot, it is simulated first (as kron simulate robot --stop S --out run.json, into a
temporary folder; --stop S, default ${ROBOT_STOP} s; --keyframe name for MJCF) and the run
is played. Ctrl-C stops it.
`;

/** what kron view takes as a model module rather than a result file */
const MODULE_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs'];

export interface ViewerServer {
  url: string;
  port: number;
  /** what the server will not serve and why (meshes outside the URDF's package root, a URDF gone) */
  warnings: string[];
  close(): Promise<void>;
}

export interface ServeOptions {
  /** a JSON result file to load; none: live mode only */
  run?: string;
  /** a model module bundled into the page and run live when the page opens */
  model?: string;
  /** 0: any free port */
  port?: number;
  /** take any free port when `port` is in use (kron view without --port) */
  orFreePort?: boolean;
  /** live mode's folder of model modules, read on every request of models.js (default: mechanisms/) */
  mechanisms?: string;
  /** the body the camera follows (checked against the run's or the model's bodies: view-track.ts) */
  track?: string;
}

type Route = { type: string; body: () => Promise<string | Buffer> };
/** the body to follow, and the file as the user named it (for the error when it has no such body) */
type Track = { body: string; file: string };

/** a result file the viewer can play: checked once, read again on every request (re-simulate, reload) */
function checkRun(file: string): string {
  const path = resolve(file);
  if (!existsSync(path)) throw new UsageError(`result file ${file} not found`, { hint: 'write one with kron simulate <model.ts> --out run.json' });
  let run: unknown;
  try {
    run = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new UsageError(`${file} is not JSON`, { hint: 'kron view plays the JSON results of kron simulate --out run.json' });
  }
  const r = run as { time?: unknown; signals?: unknown };
  if (!Array.isArray(r.time) || typeof r.signals !== 'object') {
    throw new UsageError(`${file} is not a kron result (no time and signals)`, { hint: 'kron view plays the JSON results of kron simulate --out run.json' });
  }
  return path;
}

/** a model module for the page to bundle: it must exist (the bundler says what else is wrong with it) */
function checkModel(file: string): string {
  const path = resolve(file);
  if (!existsSync(path))
    throw new UsageError(`model file ${file} not found`, { hint: shipped('give the path of a model module, e.g. mechanisms/pendulum.ts') });
  return path;
}

async function routes(
  run: string | undefined,
  model: string | undefined,
  dir: string | undefined,
  track: Track | undefined,
  warnings: string[],
): Promise<Map<string, Route>> {
  const own = model ? [model] : [];
  const bundle = await bundleViewer(own, dir);
  const live = model ? basename(model, extname(model)) : undefined;
  const page = await readFile(join(PAGE, 'index.html'));
  const text = (type: string, body: string | Buffer): Route => ({ type, body: async () => body });
  const table = new Map<string, Route>([
    ['/', text('text/html; charset=utf-8', page)],
    ['/index.html', text('text/html; charset=utf-8', page)],
    ['/app.js', text('text/javascript; charset=utf-8', bundle.js)],
    ['/app.css', text('text/css; charset=utf-8', bundle.css)],
    ['/worker.js', text('text/javascript; charset=utf-8', bundle.worker)],
    // bundled on each request, so the page's reload lists files added since the start
    ['/models.js', { type: 'text/javascript; charset=utf-8', body: async () => (await bundleModels(own, dir)).js }],
  ]);
  const served = run ? (JSON.parse(readFileSync(run, 'utf8')) as PlaybackRun) : undefined;
  if (track && served) checkTrackInRun(track.body, served, track.file);
  if (track && model) await checkTrackInModel(track.body, model, track.file);
  const files = served ? runFiles(served, rosPackagePath()) : undefined;
  for (const [route, file] of files?.meshes ?? []) table.set(route, { type: MESH_TYPES[extname(route)], body: () => readServed(file) });
  if (files?.urdf) table.set('/model.urdf', { type: 'application/xml', body: () => readServed(files.urdf!) });
  warnings.push(...(files?.warnings ?? []));
  // names and routes only: nothing the page is told is a path of this machine
  table.set(
    '/config.json',
    text('application/json', JSON.stringify({ run: run ? 'run.json' : null, live, ...files?.config, ...(track && { track: track.body }) })),
  );
  if (run) table.set('/run.json', { type: 'application/json', body: () => readFile(run) });
  return table;
}

function localHost(host: string | undefined, port: number): boolean {
  return host === `${HOST}:${port}` || host === `localhost:${port}`;
}

/**
 * Why a request comes from another site's page, or undefined for the page
 * itself, its same-origin fetches and direct navigation (the address bar,
 * curl: no Origin, Sec-Fetch-Site none or absent). Browsers send
 * Sec-Fetch-Site on every request to 127.0.0.1; Origin on cross-origin ones.
 */
export function crossSite(req: IncomingMessage, port: number): string | undefined {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site: ${site}`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${HOST}:${port}` && origin !== `http://localhost:${port}`) return `Origin: ${origin.slice(0, 100)}`;
  return undefined;
}

function handler(table: Map<string, Route>, port: () => number) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (!localHost(req.headers.host, port())) return send(403, 'text/plain', 'forbidden\n');
    const foreign = crossSite(req, port());
    if (foreign) return send(403, 'text/plain', `forbidden: a request from another site's page (${foreign})\n`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'method not allowed\n');
    // the raw path, query dropped; compared as is, never decoded or joined to a directory
    const route = table.get((req.url ?? '').split('?')[0]);
    if (!route) return send(404, 'text/plain', 'not found\n');
    try {
      send(200, route.type, await route.body());
    } catch (e) {
      // the code only: the message would name the file's path
      send(500, 'text/plain', `could not read the file (${(e as { code?: string }).code ?? 'error'})\n`);
    }
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, HOST, () => {
      server.off('error', fail);
      ok((server.address() as { port: number }).port);
    });
  });
}

// (options) => a running viewer server on 127.0.0.1; close() stops it
export async function serveViewer(options: ServeOptions = {}): Promise<ViewerServer> {
  const run = options.run === undefined ? undefined : checkRun(options.run);
  const model = options.model === undefined ? undefined : checkModel(options.model);
  const warnings: string[] = [];
  const table = await routes(
    run,
    model,
    options.mechanisms === undefined ? undefined : resolve(options.mechanisms),
    options.track === undefined ? undefined : { body: options.track, file: options.run ?? options.model ?? 'live mode' },
    warnings,
  );
  let port = 0;
  const server = createServer(handler(table, () => port));
  try {
    port = await listen(server, options.port ?? 0);
  } catch (e) {
    if ((e as { code?: string }).code !== 'EADDRINUSE') throw e;
    if (!options.orFreePort) throw new UsageError(`port ${options.port} is in use`, { hint: 'choose another with --port P, or --port 0 for any free port' });
    port = await listen(server, 0);
  }
  return {
    url: `http://${HOST}:${port}/`,
    port,
    warnings,
    close: () =>
      new Promise((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new UsageError(`--port expects a port number 0..65535, got "${text}"`);
  return port;
}

// `kron view [run.json | model.ts] [--port P] [--track body]`: returns once serving; the open server keeps the process alive
/** a URDF or MJCF robot simulated as kron simulate would, into a temporary run.json (its meshes found from the robot's file) */
async function simulateRobot(file: string, stop = String(ROBOT_STOP), keyframe?: string): Promise<string> {
  const [{ runSimulate }, { processIo }, { mkdtempSync }, { tmpdir }] = await Promise.all([
    import('./model-commands.ts'),
    import('./io.ts'),
    import('node:fs'),
    import('node:os'),
  ]);
  const out = join(mkdtempSync(join(tmpdir(), 'kron-view-')), 'run.json');
  await runSimulate([file, '--stop', stop, '--interval', '0.01', '--out', out, ...(keyframe === undefined ? [] : ['--keyframe', keyframe])], processIo());
  return out;
}

export async function view(argv: string[]): Promise<void> {
  const options = {
    port: { type: 'string' },
    track: { type: 'string' },
    stop: { type: 'string' },
    keyframe: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  } as const;
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true });
  if (values.help) {
    process.stdout.write(VIEW_USAGE);
    return;
  }
  if (positionals.length > 1) throw new UsageError(`kron view takes one result file or model module, got ${positionals.join(' ')}`, { hint: VIEW_USAGE });
  let [file] = positionals;
  const robot = file !== undefined && ['.urdf', '.xml'].includes(extname(file).toLowerCase());
  if (!robot && (values.stop !== undefined || values.keyframe !== undefined)) {
    throw new UsageError(`--${values.stop !== undefined ? 'stop' : 'keyframe'} is for a URDF or MJCF robot, which kron view simulates first`, {
      hint: 'a model module runs live in the page (its stop time is in the page); a run plays as it was simulated',
    });
  }
  if (robot) file = await simulateRobot(file!, values.stop, values.keyframe);
  const isModel = file !== undefined && MODULE_EXTENSIONS.includes(extname(file).toLowerCase());
  const [run, model] = isModel ? [undefined, file] : [file, undefined];
  const port = values.port === undefined ? DEFAULT_PORT : parsePort(values.port);
  const server = await serveViewer({ run, model, port, orFreePort: values.port === undefined, track: values.track });
  const what = (run ? `playing ${run}` : model ? `live mode: ${model}` : 'live mode') + (values.track === undefined ? '' : `, following ${values.track}`);
  for (const w of server.warnings) process.stderr.write(`warning: ${w}\n`);
  process.stdout.write(`viewer: ${server.url}  (${what})\nCtrl-C stops it.\n`);
}
