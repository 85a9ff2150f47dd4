// io/: what a result file carries for the viewer beside the signals: the
// static scene and the sampled frame poses.
export * from './types.ts';
export { describeScene } from './scene.ts';
export { packPoses, poseSignalNames, posesAtInto, sampleBefore } from './poses.ts';
export { simulatePlayback, type PlaybackRecording } from './playback.ts';
export { runBounds, shapeRadius, type Bounds } from './bounds.ts';
