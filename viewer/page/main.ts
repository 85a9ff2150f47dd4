// The viewer page: loads the served run (config.json says which), or runs a
// mechanism live (the model of `kron view model.ts` at once); wires the
// scene, the playback clock, the plot, the model tree, posing, the camera
// following a body, the controls and keys; exposes window.kron for tests and
// the console. A run without a
// scene (a drive train) gets the plot-only layout.
import './style.css';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import type { Mode } from '../../src/report.ts';
import type { PlaybackRun } from '../../src/io/types.ts';
import { SceneView } from './scene3d.ts';
import { Player } from './player.ts';
import { defaultSignals } from './plot.ts';
import { PlotStack } from './plots.ts';
import { VariableBrowser } from './variables.ts';
import { RunSignals } from './run-signals.ts';
import { InfoOverlay, type LiveCost } from './info.ts';
import { renderReport } from './report.ts';
import { compileLive, isBundled, liveMechanisms, reloadMechanisms } from './live.ts';
import { runLiveOffThread } from './live-worker.ts';
import { recordWebM, saveCSV, savePNG } from './export.ts';
import { ModelTreePanel } from './tree.ts';
import { PosePanel } from './pose-panel.ts';
import { RealTimePanel } from './realtime-panel.ts';
import { ParamsPanel } from './params-panel.ts';
import { NotesBox } from './notes.ts';
import { BodyTracker } from './tracking.ts';
import { compileUrdf } from './urdf-model.ts';
import { wireToggles } from './toggles.ts';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const ui = {
  model: $('model-name'),
  status: $('status'),
  report: $('report'),
  play: $<HTMLButtonElement>('play'),
  timeline: $<HTMLInputElement>('timeline'),
  clock: $('clock'),
  speed: $<HTMLInputElement>('speed'),
  speedValue: $('speed-value'),
  loop: $<HTMLInputElement>('loop'),
  frames: $<HTMLInputElement>('show-frames'),
  axes: $<HTMLInputElement>('show-axes'),
  contacts: $<HTMLInputElement>('show-contacts'),
  collision: $<HTMLInputElement>('show-collision'),
  record: $<HTMLButtonElement>('record'),
  help: $('help'),
  signalList: $('signal-list'),
  liveMechanism: $<HTMLSelectElement>('live-mechanism'),
  liveMode: $<HTMLSelectElement>('live-mode'),
  liveStop: $<HTMLInputElement>('live-stop'),
  picker: $<HTMLDetailsElement>('signal-picker'),
  variablesNote: $('variables-note'),
  wrap: $<HTMLInputElement>('wrap-angles'),
};

const view = new SceneView($<HTMLCanvasElement>('scene'));
const plot = new PlotStack($('plot'), (t) => seek(t));
const variables = new VariableBrowser(ui.signalList, $('variable-groups'), $<HTMLInputElement>('signal-search'), (name, on) => togglePlotted(name, on));
const info = new InfoOverlay($('info'));
const notes = new NotesBox($('notes-box'), $('notes'));
let player = new Player([]);
let run: PlaybackRun | undefined;
/** the run's signals: recorded, and every variable once the page has the model */
let signals: RunSignals | undefined;
/** the run whose every variable the browser lists */
let everyShown: RunSignals | undefined;
let stopRecording: (() => void) | undefined;
/** model-module reloads so far: the compile worker loads them again when it changes */
let modelsVersion = 0;
/** mesh name (as the URDF writes it) -> the server's route for it; a mesh the server does not serve -> why */
let meshRoutes = new Map<string, string>();
let meshesUnserved = new Map<string, string>();
/** the body the camera follows (kron view --track, key t), kept over runs that have it */
const tracking = new BodyTracker(view, note, status);
const tree = new ModelTreePanel(
  $('tree'),
  $('part-info'),
  (path) => (view.select(path), view.render()),
  (signal) => addPlotted(signal),
);
const posing = new PosePanel($('pose-panel'), $('pose-sliders'), $('pose-note'), (pose) => (view.setPose(pose), view.render()));
const params = new ParamsPanel($('param-fields'), $('params-note'));
/** the live run's last time and the total energy at its start (the overlay's drift) */
let liveClock = { t: 0, wall: 0, startTotal: undefined as number | undefined };
const realtime = new RealTimePanel(
  $<HTMLButtonElement>('realtime-toggle'),
  $('input-sliders'),
  $('realtime-note'),
  (pose, t, energy) => {
    view.setPose(pose);
    ui.clock.textContent = `live ${t.toFixed(3)} s`;
    const now = performance.now();
    if (t === 0) liveClock = { t: 0, wall: now, startTotal: energy?.total };
    info.updateLive(t, (now - liveClock.wall) / 1000, t - liveClock.t, energy, liveClock.startTotal);
    Object.assign(liveClock, { t, wall: now });
  },
  () => ((player.playing = false), update()),
);

function status(text: string, error = false): void {
  ui.status.textContent = text;
  ui.status.classList.toggle('error', error);
  if (error) console.error(text);
}

/** a note on the view (a mesh drawn as a placeholder...); none: the notes go */
function note(text?: string): void {
  if (text === undefined) notes.clear();
  else notes.add(text);
}

/** show the playback time everywhere; the recorded motion replaces a pose */
function update(): void {
  // playback shows the recording: a live run stops
  if (player.playing) realtime.stop();
  view.setTime(player.time);
  plot.setTime(player.time);
  tree.refresh(player.time);
  posing.follow(player.time, player.playing);
  info.update(player.time, player.playing && player.duration > 0);
  ui.timeline.value = String(player.time);
  ui.clock.textContent = `${player.time.toFixed(3)} s`;
  // the pause symbol only while something plays
  const playing = player.playing && player.duration > 0;
  ui.play.textContent = playing ? '❚❚' : '▶︎';
  ui.play.title = playing ? 'pause (space)' : 'play (space)';
}

function seek(t: number): void {
  player.seek(t);
  update();
  view.render();
}

function setSpeed(speed: number): void {
  player.setSpeed(speed);
  ui.speed.value = String(Math.log10(player.speed));
  ui.speedValue.textContent = `${Number(player.speed.toPrecision(2))}x`;
}

/** plot a signal or take it off (the browser's checkboxes, the model tree's signals) */
function togglePlotted(name: string, on: boolean): void {
  try {
    if (on) plot.add(name);
    else plot.drop(name);
  } catch (e) {
    status(e instanceof Error ? e.message : String(e), true);
  }
  variables.setChosen(plot.chosen);
}

const addPlotted = (name: string) => togglePlotted(name, true);

/** the variable browser's every variable: compiled and checked once per run, when the picker opens */
function showEveryVariable(): void {
  if (!signals || !ui.picker.open || everyShown === signals) return;
  everyShown = signals;
  const every = signals.every();
  ui.variablesNote.textContent =
    typeof every === 'string' ? `only the recorded signals: ${every}` : `${every.names().length} variables of the model, computed from the recorded states`;
  if (typeof every !== 'string') variables.showAll(every.names());
}

/** the info overlay's energy, once shown: after a frame, since it may compile the model */
function prepareInfo(): void {
  // the plot-only layout has no view to put it on: no compile for it
  if ($('info').hidden || document.body.classList.contains('plot-only')) return;
  setTimeout(() => (info.prepare(), update()), 20);
}

function showInfo(show: boolean): void {
  $('info').hidden = !show;
  prepareInfo();
}

/** the model of a run for posing and replay: its own, or compiled here (memoised); undefined: the page cannot have it */
function pageModel(next: PlaybackRun, compiled?: CompiledModel | (() => CompiledModel)): (() => CompiledModel) | undefined {
  if (compiled && typeof compiled !== 'function') return () => compiled;
  const source = compiled ?? (isBundled(next.model) ? () => compileLive(next.model, 'torn').compiled : undefined);
  let made: CompiledModel | undefined;
  return source && (() => (made ??= source()));
}

/** the live selector shows what is loaded: its mechanism, or the run's name as an entry of its own (also a URDF robot named like a mechanism) */
function showLoaded(model: string, fromUrdf: boolean): void {
  ui.liveMechanism.querySelector('option.loaded')?.remove();
  // the parameters panel shows the loaded model's, not the selector's first
  params.show(fromUrdf ? '' : model);
  if (!fromUrdf && [...ui.liveMechanism.options].some((o) => o.value === model)) ui.liveMechanism.value = model;
  else {
    const own = new Option(`${model} (loaded run)`, '', true, true);
    own.className = 'loaded';
    own.disabled = true;
    ui.liveMechanism.prepend(own);
  }
}

/** (run, compile report extras, its compiled model or how to compile it for posing) */
function load(next: PlaybackRun, extra: Record<string, string | number> = {}, compiled?: CompiledModel | (() => CompiledModel), live?: LiveCost): void {
  run = next;
  const keepSpeed = player.speed;
  player = new Player(next.time);
  player.setSpeed(keepSpeed);
  player.loop = ui.loop.checked;
  ui.model.textContent = next.model;
  showLoaded(next.model, !!next.source?.urdf);
  if (next.report) ui.liveMode.value = next.report.mode;
  ui.timeline.max = String(player.duration);
  ui.timeline.step = String(next.time.length > 1 ? next.time[1] - next.time[0] : 0.01);
  note();
  const mechanism = !!(next.scene && next.poses);
  document.body.classList.toggle('plot-only', !mechanism);
  if (next.scene && next.poses) {
    const missing = new Set<string>();
    view.load(next.scene, next.poses, next.time, {
      track: tracking.frameIn(next),
      signals: next.signals,
      meshUrl: (s) => meshRoutes.get(s.filename),
      missingMesh: (filename, why) => {
        if (!missing.has(filename)) note(`mesh ${filename}: ${meshesUnserved.get(filename) ?? why}; drawn as a placeholder sphere`);
        missing.add(filename);
      },
    });
    $('contacts-label').title = view.contacts!.describe();
    // beside the model tree, for runs that have collision geometry (the controls' line has no room left at 800 px)
    $('collision-label').hidden = view.collisionState().count === 0;
  }
  const model = pageModel(next, compiled);
  posing.show(next, model);
  realtime.show(next, model);
  signals = new RunSignals(next, model, `${next.model} is not a model of mechanisms/ (kron view model.ts runs a model of your own live)`);
  tree.show(next, signals);
  if (next.report) renderReport(ui.report, next.report, extra);
  else
    ui.report.innerHTML =
      '<p class="muted">this run carries no compile report (<code>kron simulate --out run.json</code> writes one for mechanisms; <code>kron compile</code> prints it).</p>';
  const chosen = defaultSignals(signals.recorded);
  variables.show(signals.recorded, chosen, (n) => signals?.unit(n) ?? '');
  plot.show(signals, chosen);
  ui.variablesNote.textContent = '';
  showEveryVariable();
  info.show(signals, next.integration, live, mechanism ? view.contacts!.scaleText() : '');
  prepareInfo();
  update();
  view.render(true);
  if (!mechanism) status('this run has no mechanism to draw: plot only');
}

async function loadServedRun(): Promise<void> {
  // live: the model module of `kron view model.ts`, run as soon as the page opens
  const config = (await (await fetch('config.json')).json()) as {
    run: string | null;
    live?: string;
    meshes?: Record<string, string>;
    unserved?: Record<string, string>;
    urdf?: string;
    track?: string;
  };
  tracking.request(config.track);
  // Maps: a mesh named "constructor" is a name, not Object.prototype's
  meshRoutes = new Map(Object.entries(config.meshes ?? {}));
  meshesUnserved = new Map(Object.entries(config.unserved ?? {}));
  if (config.live) return live(config.live, ui.liveMode.value as Mode, Number(ui.liveStop.value) || 5);
  if (!config.run) return;
  status('loading run…');
  const response = await fetch(config.run);
  if (!response.ok) throw new Error(`could not load ${config.run}: ${response.status}`);
  const served = (await response.json()) as PlaybackRun;
  // a URDF robot's run: the robot is compiled here from its file when posing asks for it
  const urdf = config.urdf ? await (await fetch(config.urdf)).text() : undefined;
  load(served, {}, urdf ? () => compileUrdf(urdf, served) : undefined);
  if (!document.body.classList.contains('plot-only')) status('');
}

/** compile and simulate in the page with the parameter fields' values (or these); yields a frame first so the status shows */
async function live(name: string, mode: Mode, stop: number, parameters?: Record<string, number>): Promise<void> {
  params.show(name);
  const values = parameters ?? params.changed();
  const changed = Object.entries(values)
    .map(([p, v]) => `${p} = ${v}`)
    .join(', ');
  status(`compiling ${name} (${mode})${changed ? ` with ${changed}` : ''} and simulating ${stop} s…`);
  try {
    // in the compile worker: the page keeps drawing meanwhile
    const {
      run: next,
      simulateMs,
      compiled,
      evaluationUs,
      inWorker,
    } = await runLiveOffThread({ version: modelsVersion, name, mode, stop, parameters: values });
    const extra = {
      'simulation time (live)': `${simulateMs} ms for ${stop} s${inWorker ? ' (in a worker)' : ''}`,
      ...(changed && { 'parameters (live)': changed }),
    };
    load(next, extra, compiled, { compileMs: compiled.report.compileMs, evaluationUs });
    // the file's name, which may differ from the model's (a copied module keeps its model's name)
    ui.liveMechanism.querySelector('option.loaded')?.remove();
    ui.liveMechanism.value = name;
    status(`live: ${name}, ${mode}${changed ? `, ${changed}` : ''}`);
  } catch (e) {
    status(`live ${name} failed: ${e instanceof Error ? e.message : String(e)}`, true);
  }
}

/** the live selector lists the model modules the server bundles now (new files under mechanisms/ included) */
async function refreshMechanisms(): Promise<void> {
  const chosen = ui.liveMechanism.value,
    loaded = ui.liveMechanism.querySelector('option.loaded');
  await reloadMechanisms();
  modelsVersion++;
  ui.liveMechanism.replaceChildren(...liveMechanisms().map((n) => new Option(n, n)));
  // the selector keeps showing what is loaded
  if (loaded) ui.liveMechanism.prepend(loaded);
  else if (chosen && liveMechanisms().includes(chosen)) ui.liveMechanism.value = chosen;
  // a loaded run keeps its parameters shown (showLoaded)
  if (!loaded && ui.liveMechanism.value) params.show(ui.liveMechanism.value);
}

function toggleRecording(): void {
  if (stopRecording) {
    stopRecording();
    stopRecording = undefined;
  } else {
    stopRecording = recordWebM(view.canvas, `${run?.model ?? 'kron'}.webm`);
  }
  ui.record.classList.toggle('on', !!stopRecording);
}

function wireControls(): void {
  const on = (id: string, f: () => void) => $(id).addEventListener('click', f);
  on('play', () => (player.toggle(), update()));
  on('reset', () => seek(0));
  on('step-back', () => ((player.playing = false), player.step(-1), update()));
  on('step-forward', () => ((player.playing = false), player.step(1), update()));
  on('screenshot', () => void savePNG(view.canvas, `${run?.model ?? 'kron'}-t${player.time.toFixed(2)}.png`));
  on('record', toggleRecording);
  on('fit', () => view.fit());
  on('add-plot', () => plot.addPlot());
  on('export-csv', () => saveCSV(plot.csv(), `${run?.model ?? 'kron'}-signals.csv`));
  ui.wrap.addEventListener('change', () => plot.setWrap(ui.wrap.checked));
  ui.picker.addEventListener('toggle', () => {
    if (!ui.picker.open) return;
    ui.variablesNote.textContent = 'compiling the model for every variable…';
    setTimeout(showEveryVariable, 20); // the note shows first
  });
  on('help-button', () => (ui.help.hidden = !ui.help.hidden));
  ui.help.addEventListener('click', () => (ui.help.hidden = true));
  ui.timeline.addEventListener('input', () => seek(Number(ui.timeline.value)));
  ui.speed.addEventListener('input', () => setSpeed(10 ** Number(ui.speed.value)));
  ui.loop.addEventListener('change', () => (player.loop = ui.loop.checked));
  toggleKeys = wireToggles([
    { box: ui.frames, key: 'x', set: (on) => view.setShowFrames(on) },
    { box: ui.axes, key: 'j', set: (on) => view.setShowJointAxes(on) },
    { box: ui.contacts, key: 'c', set: (on) => view.setShowContacts(on) },
    { box: ui.collision, key: 'g', set: (on) => view.setShowCollision(on) },
  ]);
  on(
    'live-reload',
    () =>
      void refreshMechanisms()
        .then(() => status(`live: ${liveMechanisms().length} mechanisms`))
        .catch((e) => status(e instanceof Error ? e.message : String(e), true)),
  );
  ui.liveMechanism.addEventListener('change', () => params.show(ui.liveMechanism.value));
  $('live').addEventListener('submit', (e) => {
    e.preventDefault();
    void live(ui.liveMechanism.value, ui.liveMode.value as Mode, Number(ui.liveStop.value) || 5);
  });
}

/** the show/hide toggles' keys (wireControls) */
let toggleKeys: Record<string, () => void> = {};
const VIEW_KEYS = ['f', 't', 'x', 'j', 'c', 'g', 'i', '?', 'h', 'Escape'];

/** MuJoCo's keys: space play/pause, backspace reset, arrows step; ? or h help */
function onKey(e: KeyboardEvent): void {
  const target = e.target as HTMLElement;
  if (target.matches('input[type=number], input[type=text], select') || e.ctrlKey || e.metaKey || e.altKey) return;
  const actions: Record<string, () => void> = {
    ' ': () => player.toggle(),
    Backspace: () => player.seek(0),
    ArrowRight: () => ((player.playing = false), player.step(1)),
    ArrowLeft: () => ((player.playing = false), player.step(-1)),
    ArrowUp: () => setSpeed(player.speed * 2),
    ArrowDown: () => setSpeed(player.speed / 2),
    f: () => view.fit(),
    t: () => tracking.toggle(run, tree.selection),
    ...toggleKeys,
    i: () => showInfo($('info').hidden),
    '?': () => (ui.help.hidden = !ui.help.hidden),
    h: () => (ui.help.hidden = !ui.help.hidden),
    Escape: () => (ui.help.hidden = true),
  };
  const action = actions[e.key];
  if (!action) return;
  e.preventDefault();
  action();
  // keys that only change the view keep a pose; the others show the recorded motion at the (new) time
  if (VIEW_KEYS.includes(e.key)) view.render();
  else update();
}

function frame(last: number) {
  return (now: number) => {
    const before = player.time,
      dt = Math.min(0.1, (now - last) / 1000);
    realtime.frame(dt, player.speed);
    if (player.advance(dt)) {
      // simulated time shown over wall time (a loop back to the start counts the run's duration)
      info.measure(dt, player.time - before + (player.time < before ? player.duration : 0));
      update();
    }
    view.render(!!stopRecording);
    requestAnimationFrame(frame(now));
  };
}

/** the testing hook: drive the page deterministically */
const kron = {
  ready: Promise.resolve(),
  seek: (t: number) => seek(t),
  play: () => ((player.playing = true), update()),
  pause: () => ((player.playing = false), update()),
  setSpeed,
  live,
  reloadMechanisms: refreshMechanisms,
  fit: () => (view.fit(), view.render()),
  select: (path: string | undefined) => tree.select(path),
  partBox: (path: string) => view.partOnScreen(path),
  pointOnScreen: (frame: number, local: readonly number[]) => view.pointOnScreen(frame, local),
  worldOnScreen: (world: readonly number[]) => view.worldOnScreen(world),
  parts: () => view.partNames(),
  pose: (values: Record<string, number>) => posing.poseTo(values),
  /** the camera follows this body (none: stops); false when the run has no body of that name */
  track: (body?: string) => tracking.track(run, body),
  /** a live model module's parameter field (compile & run uses it) */
  setParameter: (name: string, value: number) => params.set(name, value),
  /** the live run (run live): start it (held still at `until` s), stop it, set an input */
  realtime: {
    start: (until?: number) => realtime.start(until),
    resume: (until?: number) => realtime.resume(until),
    stop: () => realtime.stop(),
    setInput: (name: string, value: number) => realtime.setInput(name, value),
  },
  posedFrames: () => posing.lastPose,
  plot: addPlotted,
  plotted: (name: string) => plot.values(name),
  csv: () => plot.csv(),
  showInfo,
  state: () => ({
    model: run?.model,
    time: player.time,
    playing: player.playing,
    speed: player.speed,
    duration: player.duration,
    samples: run?.time.length ?? 0,
    frames: run?.poses?.frames ?? 0,
    plot: plot.state(),
    mechanismBox: view.mechanismOnScreen(),
    liveMechanisms: [...ui.liveMechanism.options].map((o) => o.value),
    selectedMechanism: ui.liveMechanism.selectedOptions[0]?.textContent ?? '',
    playIcon: ui.play.textContent,
    plotOnly: document.body.classList.contains('plot-only'),
    notes: notes.texts(),
    selected: tree.selection,
    posing: posing.state(),
    info: info.state(),
    realtime: realtime.state(),
    tracking: tracking.following === undefined ? undefined : { body: tracking.following, ...view.tracked() },
    contacts: view.contacts?.state(),
    collision: view.collisionState(),
  }),
};
declare global {
  interface Window {
    kron: typeof kron;
  }
}
window.kron = kron;

wireControls();
// controls give the keyboard back after a click, so space and the arrows always drive playback
$('controls').addEventListener('pointerup', (e) => setTimeout(() => (e.target as HTMLElement).blur?.(), 0));
window.addEventListener('keydown', onKey);
setSpeed(1);
kron.ready = refreshMechanisms()
  .then(loadServedRun)
  .catch((e) => status(e instanceof Error ? e.message : String(e), true));
requestAnimationFrame(frame(performance.now()));
