// viewer: a double pendulum's run written as a result file that the 3D viewer plays.
//
// simulatePlayback runs the model and records, beside the signals, what the
// viewer draws: the scene (bodies, bars, joints) and every frame's pose at
// every sample. Written as JSON, it is the file `kron simulate --out run.json`
// writes; `npx kron view double-pendulum.json` serves it on
// http://127.0.0.1:8080/ (Ctrl-C stops the server). In a web page of your
// own, mountViewer from 'kron/browser' plays the same data in an element:
//   mountViewer(element, { model: 'double-pendulum', ...result.toJSON(), ...playback })
// (a bundler resolves 'kron/browser'; it needs the packages three and uplot).
//
// Run it: npx tsx viewer.ts [out.json], then: npx kron view double-pendulum.json
import { writeFileSync } from 'node:fs';
import { Mechanism, compile, simulatePlayback } from 'kron';

const out = process.argv[2] ?? 'double-pendulum.json';
export const L1 = 0.5,
  L2 = 0.4;

const m = new Mechanism('double-pendulum'); // gravity along -y
const j1 = m.revolute('j1', { axis: [0, 0, 1], q: 0.4 });
// the rods are drawn as cylinders along x, from the joint to the next one
const rod = (L: number, color: string) => ({
  shape: { type: 'cylinder' as const, radius: 0.02, length: L },
  color,
  offset: [L / 2, 0, 0] as [number, number, number],
  axis: [1, 0, 0] as [number, number, number],
});
const link1 = m.body('link1', { m: 1, rcm: [L1 / 2, 0, 0], I: [0.0002, 0.02, 0.02], geometry: rod(L1, '#2e86de') });
const elbow = m.bar('elbow', { r: [L1, 0, 0] });
const j2 = m.revolute('j2', { axis: [0, 0, 1], q: -0.3 });
const link2 = m.body('link2', { m: 0.8, rcm: [L2 / 2, 0, 0], I: [0.0001, 0.011, 0.011], geometry: rod(L2, '#e67e22') });
m.connect(m.world.frame_b, j1.frame_a);
m.connect(j1.frame_b, link1.frame_a);
m.connect(j1.frame_b, elbow.frame_a);
m.connect(elbow.frame_b, j2.frame_a);
m.connect(j2.frame_b, link2.frame_a);

const compiled = compile(m);
const { result, playback } = simulatePlayback(m, compiled, { stop: 5, interval: 0.01, signals: ['j1.q', 'j2.q'] });
writeFileSync(out, JSON.stringify({ model: compiled.report.model, ...result.toJSON(), ...playback }));

const frames = playback!.scene.frames.length;
console.log(`wrote ${out}: ${result.length} samples of ${result.names.join(', ')}, the poses of ${frames} frames`);
console.log(`play it: npx kron view ${out}`);
