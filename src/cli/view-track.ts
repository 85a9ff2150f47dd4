// `kron view … --track body`: the body the page's camera follows, checked
// before serving, so that a misspelt body is a UsageError naming it and the
// bodies there are, not a page that quietly does not follow. A run's bodies
// are its scene's; a model module is built (default parameters) and its
// Body components are the bodies. In live mode without a file the page
// checks it against the mechanism it runs.
import { UsageError } from '../errors.ts';
import type { PlaybackRun } from '../io/types.ts';
import { Body } from '../library/multibody/body.ts';
import type { Component } from '../model/index.ts';
import { loadModel } from './load.ts';

/** a body matches its own name, or the name of the component it is in (b1 for the body b1.body of a BodyCylinder) */
const tracks = (body: string, track: string) => body === track || body.startsWith(`${track}.`);

function bodiesOf(c: Component, out: string[] = []): string[] {
  if (c instanceof Body) out.push(c.path);
  c.children.forEach((child) => bodiesOf(child, out));
  return out;
}

function check(track: string, bodies: readonly string[], what: string): void {
  if (bodies.some((b) => tracks(b, track))) return;
  const shown = bodies.slice(0, 20).join(', ') + (bodies.length > 20 ? `, … (${bodies.length} in all)` : '');
  throw new UsageError(`--track ${track}: ${what} has no body ${track}`, {
    component: track,
    hint: bodies.length ? `follow one of its bodies: ${shown}` : `${what} has no body to follow`,
  });
}

/** a run file's scene has the body */
export function checkTrackInRun(track: string, run: PlaybackRun, file: string): void {
  if (!run.scene)
    throw new UsageError(`--track ${track}: ${file} has no mechanism to follow (a plot-only run)`, { hint: 'drop --track for a run without a scene' });
  check(
    track,
    run.scene.shapes.filter((s) => s.kind === 'body').map((s) => s.name),
    file,
  );
}

/** a model module's model (built with its default parameters) has the body; named as given */
export async function checkTrackInModel(track: string, path: string, file: string): Promise<void> {
  const { model } = await loadModel(path, {});
  check(track, bodiesOf(model), file);
}
