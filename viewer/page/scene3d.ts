// The three.js view of a run: one group per pose frame (moved every time
// step), shapes attached to their frame, rods between frames, joint axes,
// world frame and ground grid, and an orbit camera framed on the mechanism
// (over the run when it loads, as it stands now on fit()), which can follow a
// body (follow.ts), and the contact forces the run recorded (contact-arrows.ts). Parts are kept by component name, so that the model tree
// can highlight one.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { runBounds } from '../../src/io/bounds.ts';
import { posesAtInto } from '../../src/io/poses.ts';
import { POSE_STRIDE, type Poses, type Scene, type SceneLink } from '../../src/io/types.ts';
import type { Floor, Shape } from '../../src/library/multibody/geometry.ts';
import { ContactArrows } from './contact-arrows.ts';
import { boxCorners, fitPoints, meshCorners, projectedBox, viewDirection } from './camera.ts';
import { CameraFollow } from './follow.ts';
import { colliderObject } from './colliders.ts';
import { type MeshUrl, Y, jointMarker, placeRod, setHighlight, shapeObject } from './shapes.ts';

const BACKGROUND = '#eef1f4';
/** samples at which the mechanism's extent over the run is measured for the first framing */
const EXTENT_SAMPLES = 24;

/** add child to parent and return the child */
function attach<T extends THREE.Object3D>(parent: THREE.Object3D, child: T): T {
  parent.add(child);
  return child;
}

/** half the smallest dimension of each shape: how thick the mechanism's parts are */
function thicknesses(scene: Scene): number[] {
  const half = (s: Shape) => (s.type === 'box' ? Math.min(...s.size) / 2 : s.type === 'ellipsoid' ? Math.min(...s.radii) : s.type === 'plane' ? 0 : s.radius);
  // a floor is no part of the mechanism
  return scene.shapes
    .filter((x) => x.geometry.shape.type !== 'plane')
    .map((x) => half(x.geometry.shape))
    .sort((a, b) => a - b);
}

/**
 * Nothing is fixed to the world: everything at the world's frame is a free
 * joint's frame_a (a floating robot, a tumbling box). Such a mechanism gets
 * no pedestal, and its size is its own, not the run's reach (a robot that
 * falls 20 m is not 20 m tall).
 */
function floats(scene: Scene): boolean {
  if (scene.world < 0) return false;
  const free = new Set(scene.joints.filter((j) => j.type === 'freejoint').map((j) => `${j.name}.frame_a`));
  // the world's own frame, and free joints only
  const { members } = scene.frames[scene.world];
  return members.length > 1 && members.filter((m) => !free.has(m)).length === 1;
}

/** the mechanism's size: the diagonal of what it draws over the run, or at the start when it floats */
function mechanismSize(scene: Scene, poses: Poses): number {
  const start = floats(scene) ? { ...poses, data: poses.data.slice(0, poses.frames * POSE_STRIDE) } : poses;
  const { min, max } = runBounds(scene, start);
  return Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) || 1;
}

/** the size of a joint marker: 2.5 times a typical part's thickness, within 1% to 5% of the mechanism's size */
function jointSize(thickness: readonly number[], size: number): number {
  const median = thickness.length ? thickness[thickness.length >> 1] : 0;
  return Math.min(0.05 * size, Math.max(0.01 * size, 2.5 * median));
}

export interface ScreenBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LoadOptions {
  /** where a mesh file is served (none: every mesh is a placeholder) */
  meshUrl?: MeshUrl;
  /** a mesh file that could not be drawn: the page lists them */
  missingMesh?: (filename: string, why: string) => void;
  /** the pose set the camera follows (the camera is then framed on the mechanism at the start, not over the run) */
  track?: number;
  /** the run's signals: the contact forces among them are drawn as arrows */
  signals?: Record<string, ArrayLike<number>>;
}

export class SceneView {
  readonly renderer: THREE.WebGLRenderer;
  private readonly three = new THREE.Scene();
  private readonly camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
  private readonly controls: OrbitControls;
  private readonly follow: CameraFollow;
  /** the run's extent is being measured: frames move, the camera does not follow */
  private measuring = false;
  private content = new THREE.Group();
  private mechanism = new THREE.Group();
  private frames: THREE.Group[] = [];
  private rods: { mesh: THREE.Mesh; link: SceneLink }[] = [];
  private frameAxes: THREE.Object3D[] = [];
  private jointAxes: THREE.Object3D[] = [];
  /** the drawn objects of each component, by its path */
  private parts = new Map<string, THREE.Object3D[]>();
  private selected: string | undefined;
  private pose = new Float32Array(0);
  /** the poses drawn now (recorded or posed), to draw again after measuring the run */
  private current = new Float32Array(0);
  private run: { scene: Scene; poses: Poses; time: ArrayLike<number> } | undefined;
  private up = new THREE.Vector3(0, 1, 0);
  /** the grid and the pedestal */
  private ground: THREE.Object3D[] = [];
  /** the user has turned, panned or zoomed since the camera was framed: a late mesh leaves the view alone */
  private userMoved = false;
  private view = new THREE.Vector3(0, 0, 1);
  private dirty = true;
  private readonly resizes = new ResizeObserver(() => this.resize());
  showFrames = false;
  showJointAxes = true;
  showContacts = true;
  /** collision geometry shown (off: what the model looks like) */
  showCollision = false;
  private colliders: THREE.Object3D[] = [];
  /** the run's contact force arrows (none recorded: an empty set) */
  contacts: ContactArrows | undefined;

  constructor(readonly canvas: HTMLCanvasElement) {
    // preserveDrawingBuffer: the PNG button and tests read the canvas after rendering
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio);
    this.three.background = new THREE.Color(BACKGROUND);
    this.three.add(this.content);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener('change', () => (this.dirty = true));
    this.controls.addEventListener('start', () => (this.userMoved = true));
    this.follow = new CameraFollow(this.camera, this.controls);
    this.resizes.observe(canvas.parentElement!);
    this.resize();
  }

  /** release the WebGL context, the camera's listeners and the resize observer (the canvas stays) */
  dispose(): void {
    this.resizes.disconnect();
    this.controls.dispose();
    this.content.traverse((o) => {
      if (o instanceof THREE.Mesh) o.geometry.dispose();
    });
    this.renderer.dispose();
  }

  private resize(): void {
    const { clientWidth: w, clientHeight: h } = this.canvas.parentElement!;
    if (!w || !h) return;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.dirty = true;
  }

  private addPart(name: string, object: THREE.Object3D): void {
    this.parts.set(name, [...(this.parts.get(name) ?? []), object]);
  }

  /** build the scene graph of a run and frame the camera on it */
  load(scene: Scene, poses: Poses, time: ArrayLike<number>, options: LoadOptions = {}): void {
    this.three.remove(this.content);
    this.content.traverse((o) => {
      if (o instanceof THREE.Mesh) o.geometry.dispose();
    });
    this.content = new THREE.Group();
    this.three.add(this.content);
    this.run = { scene, poses, time };
    this.follow.stop();
    this.follow.frame = options.track;
    this.ground = [];
    this.parts = new Map();
    this.selected = undefined;
    this.pose = new Float32Array(poses.frames * POSE_STRIDE);
    this.current = new Float32Array(poses.frames * POSE_STRIDE);
    const size = mechanismSize(scene, poses);
    const up = new THREE.Vector3(...scene.gravity).negate();
    if (up.lengthSq() < 1e-12) up.set(0, 1, 0);
    this.up = up.normalize();
    const mechanism = (this.mechanism = new THREE.Group());
    this.frames = scene.frames.map(() => attach(mechanism, new THREE.Group()));
    this.frameAxes = this.frames.filter((_, f) => f !== scene.world).map((g) => attach(g, new THREE.AxesHelper(size * 0.06)));
    const callbacks = {
      meshUrl: options.meshUrl ?? (() => undefined),
      loaded: () => this.meshLoaded(),
      missing: options.missingMesh ?? (() => undefined),
    };
    for (const s of scene.shapes) this.addPart(s.name, attach(this.frames[s.frame], shapeObject(s.geometry, callbacks)));
    const rodGeometry = new THREE.CylinderGeometry(1, 1, 1, 20);
    this.rods = scene.links.map((link) => {
      const mesh = new THREE.Mesh(rodGeometry, new THREE.MeshStandardMaterial({ color: link.color, roughness: 0.6 }));
      mechanism.add(mesh);
      this.addPart(link.name, mesh);
      return { mesh, link };
    });
    const thickness = thicknesses(scene);
    this.jointAxes = scene.joints.map((j) => {
      const marker = attach(this.frames[j.frame], jointMarker(j.type, j.axis, jointSize(thickness, size)));
      this.addPart(j.name, marker);
      return marker;
    });
    this.colliders = (scene.colliders ?? []).map((c) => attach(this.frames[c.frame], colliderObject(c)));
    this.setShowCollision(this.showCollision);
    const worldFrame = new THREE.AxesHelper(size * 0.15);
    this.contacts = new ContactArrows(options.signals ?? {}, time, size);
    this.contacts.setVisible(this.showContacts);
    this.content.add(mechanism, worldFrame, this.contacts.group, ...this.lights(this.up));
    this.setShowFrames(this.showFrames);
    this.setShowJointAxes(this.showJointAxes);
    this.placeGround(true);
  }

  /**
   * The ground just below what is drawn over the run, the world's pedestal
   * down to it, and the camera on it all (from a new direction only when a
   * run loads); again when a mesh file arrives, unless the user has moved
   * the camera since.
   */
  private placeGround(newRun: boolean): void {
    const { scene } = this.run!;
    const now = Float32Array.from(this.current);
    const reached = this.extentOverRun();
    const drawn = new THREE.Box3().setFromPoints(reached);
    for (const o of this.ground) this.content.remove(o);
    this.ground = scene.floor ? this.floor(drawn, scene.floor) : [this.grid(drawn, this.up)];
    if (newRun) this.setTime(0);
    else this.setPose(now);
    // a root link with a shape of its own (a URDF base) stands by itself
    if (scene.world >= 0 && !floats(scene) && !scene.shapes.some((s) => s.frame === scene.world)) {
      const thickness = thicknesses(scene).at(-1) || 0.005 * drawn.getSize(new THREE.Vector3()).length();
      this.ground.push(...this.pedestal(this.frames[scene.world].position, this.ground[0].position, thickness));
    }
    this.content.add(...this.ground);
    if (newRun) this.view = viewDirection(drawn, this.up);
    // a followed body is framed as it stands (over the run, a falling robot would be a speck)
    if (newRun || !this.userMoved) this.aim(this.follow.frame === undefined ? reached : this.currentExtent());
  }

  private meshLoaded(): void {
    this.select(this.selected);
    this.placeGround(false);
  }

  /** the names of the components drawn (shapes, rods, joint markers) */
  partNames(): string[] {
    return [...this.parts.keys()];
  }

  /** the ground: a grid normal to gravity, just below everything drawn */
  private grid(box: THREE.Box3, up: THREE.Vector3): THREE.GridHelper {
    const corners = boxCorners(box);
    const low = Math.min(...corners.map((c) => c.dot(up)));
    const centre = box.getCenter(new THREE.Vector3());
    const extent = Math.max(...corners.map((c) => c.clone().sub(centre).projectOnPlane(up).length()));
    const cell = 10 ** Math.floor(Math.log10(Math.max(extent, 1e-3) / 2));
    const divisions = Math.max(4, Math.ceil((extent * 2.4) / cell / 2) * 2);
    const grid = new THREE.GridHelper(divisions * cell, divisions, '#9aa5b1', '#c8d0d8');
    grid.quaternion.setFromUnitVectors(Y, up);
    grid.position.copy(centre).addScaledVector(up, low - centre.dot(up) - 1e-3 * extent);
    return grid;
  }

  /**
   * The model's own floor (an MJCF plane): the grid laid on it, over a plane
   * of its colour, as large as the grid; a mechanism falling through it (no
   * contacts) is seen below it.
   */
  private floor(box: THREE.Box3, floor: Floor): THREE.Object3D[] {
    const normal = new THREE.Vector3(...floor.normal).normalize();
    const grid = this.grid(box, normal);
    grid.position.copy(box.getCenter(new THREE.Vector3()).projectOnPlane(normal)).addScaledVector(normal, new THREE.Vector3(...floor.point).dot(normal));
    grid.geometry.computeBoundingBox();
    const size = grid.geometry.boundingBox!.max.x - grid.geometry.boundingBox!.min.x;
    const plane = new THREE.Mesh(
      new THREE.PlaneGeometry(size, size),
      new THREE.MeshStandardMaterial({ color: floor.color, roughness: 0.9, side: THREE.DoubleSide, transparent: true, opacity: 0.6 }),
    );
    plane.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), normal);
    plane.position.copy(grid.position).addScaledVector(normal, -1e-3 * size);
    return [grid, plane];
  }

  /**
   * The world's mount: a column from the world frame down to the ground, so
   * that a mechanism fixed in the air stands on something (the PUMA's
   * pedestal, the four-bar's post), as thick as the mechanism's thickest part;
   * none when the world frame is on the ground.
   */
  private pedestal(world: THREE.Vector3, ground: THREE.Vector3, radius: number): THREE.Object3D[] {
    const height = world.clone().sub(ground).dot(this.up);
    if (!(height > 2 * radius)) return [];
    const column = new THREE.Mesh(
      new THREE.CylinderGeometry(radius, radius * 1.3, height, 32),
      new THREE.MeshStandardMaterial({ color: '#5d6d7e', roughness: 0.7 }),
    );
    column.quaternion.setFromUnitVectors(Y, this.up);
    column.position.copy(world).addScaledVector(this.up, -height / 2 - 0.5 * radius);
    return [column];
  }

  private lights(up: THREE.Vector3): THREE.Light[] {
    const sky = new THREE.HemisphereLight('#ffffff', '#667788', 2.2);
    sky.position.copy(up);
    const sun = new THREE.DirectionalLight('#ffffff', 1.6);
    sun.position
      .copy(up)
      .multiplyScalar(2)
      .add(new THREE.Vector3(1, 1, 1));
    return [sky, sun];
  }

  /** the corners of what the mechanism draws as it stands now (frame axes left out: they are an overlay) */
  private currentExtent(): THREE.Vector3[] {
    const points = meshCorners([this.mechanism], new Set(this.frameAxes));
    return points.length ? points : this.frames.map((g) => g.getWorldPosition(new THREE.Vector3()));
  }

  private aim(points: THREE.Vector3[]): void {
    this.userMoved = false;
    this.controls.target.copy(fitPoints(this.camera, points, this.view, this.up));
    this.controls.update();
    // a followed body keeps its place in the view framed on the mechanism
    this.track(this.follow.frame, false);
    this.dirty = true;
  }

  /** the camera follows this pose set from now on (undefined: it stays), keeping its offset; centre: the body moves to the view's centre first */
  track(frame: number | undefined, centre = true): void {
    if (frame === undefined || !this.frames[frame]) this.follow.stop();
    else this.follow.start(frame, this.frames[frame].position, centre);
    this.dirty = true;
  }

  /** the followed pose set, its origin in the world and on screen (CSS pixels of the canvas); undefined when none */
  tracked(): { frame: number; world: number[]; screen: { x: number; y: number } } | undefined {
    const { frame } = this.follow;
    if (frame === undefined) return undefined;
    const world = this.frames[frame].position.toArray();
    return { frame, world, screen: this.worldOnScreen(world) };
  }

  /** a point given in a pose set's coordinates, on screen now (CSS pixels of the canvas; for tests); undefined: no such pose set */
  pointOnScreen(frame: number, local: readonly number[]): { x: number; y: number } | undefined {
    const f = this.frames[frame];
    if (!f) return undefined;
    f.updateMatrixWorld();
    return this.worldOnScreen(f.localToWorld(new THREE.Vector3(...local)).toArray());
  }

  /** a point given in world coordinates, on screen now (CSS pixels of the canvas; for tests) */
  worldOnScreen(world: readonly number[]): { x: number; y: number } {
    const q = new THREE.Vector3(...world).project(this.camera);
    const { clientWidth: w, clientHeight: h } = this.canvas;
    return { x: ((q.x + 1) / 2) * w, y: ((1 - q.y) / 2) * h };
  }

  /** the corners of what the mechanism draws at samples spread over the run (it is left at the last) */
  private extentOverRun(): THREE.Vector3[] {
    const { time } = this.run!;
    const points: THREE.Vector3[] = [];
    const n = Math.min(EXTENT_SAMPLES, time.length);
    this.measuring = true;
    for (let i = 0; i < n; i++) {
      this.setTime(time[Math.round((i * (time.length - 1)) / Math.max(1, n - 1))] ?? 0);
      for (const p of this.currentExtent()) points.push(p);
    }
    this.measuring = false;
    return points;
  }

  /** frame the camera on the mechanism as it stands now, from where the camera looks ("f") */
  fit(): void {
    if (!this.run) return;
    this.view = this.camera.position.clone().sub(this.controls.target).normalize();
    this.aim(this.currentExtent());
  }

  /** move every frame to its pose at time t */
  setTime(t: number): void {
    if (!this.run) return;
    const { poses, time } = this.run;
    this.setPose(posesAtInto(this.pose, poses, time, t));
    this.contacts?.setTime(t);
  }

  /** move every frame to the given poses (POSE_STRIDE numbers per frame): a recorded time, or a posed mechanism */
  setPose(pose: ArrayLike<number>): void {
    this.current.set(pose);
    this.frames.forEach((g, f) => {
      const o = f * POSE_STRIDE;
      g.position.set(pose[o], pose[o + 1], pose[o + 2]);
      g.quaternion.set(pose[o + 3], pose[o + 4], pose[o + 5], pose[o + 6]);
    });
    for (const { mesh, link } of this.rods) placeRod(mesh, this.frames[link.from].position, this.frames[link.to].position, link.radius);
    if (this.follow.frame !== undefined && !this.measuring) this.follow.moved(this.frames[this.follow.frame].position);
    this.dirty = true;
  }

  /** the objects of a component and of the components inside it (b1: b1.body and b1.bar) */
  private partsOf(name: string | undefined): THREE.Object3D[] {
    if (!name) return [];
    return [...this.parts].filter(([n]) => n === name || n.startsWith(`${name}.`)).flatMap(([, objects]) => objects);
  }

  /** highlight one component's parts (undefined: none); a joint's marker shows while it is selected */
  select(name: string | undefined): void {
    setHighlight(this.partsOf(this.selected), false);
    this.selected = name;
    setHighlight(this.partsOf(name), true);
    this.setShowJointAxes(this.showJointAxes);
  }

  setShowFrames(on: boolean): void {
    this.showFrames = on;
    for (const a of this.frameAxes) a.visible = on;
    this.dirty = true;
  }

  setShowContacts(on: boolean): void {
    this.showContacts = on;
    this.contacts?.setVisible(on);
    this.dirty = true;
  }

  setShowCollision(on: boolean): void {
    this.showCollision = on;
    for (const c of this.colliders) c.visible = on;
    this.dirty = true;
  }

  /** the collision geometry drawn: how many colliders, and whether they show */
  collisionState(): { count: number; shown: boolean } {
    return { count: this.colliders.length, shown: this.showCollision };
  }

  setShowJointAxes(on: boolean): void {
    this.showJointAxes = on;
    const selected = new Set(this.partsOf(this.selected));
    for (const a of this.jointAxes) a.visible = on || selected.has(a);
    this.dirty = true;
  }

  /** render if anything changed (or always, e.g. while recording video) */
  render(force = false): void {
    if (!this.dirty && !force) return;
    this.dirty = false;
    this.renderer.render(this.three, this.camera);
  }

  /** the box on screen of points, in CSS pixels of the canvas, clamped to it */
  private onScreen(points: THREE.Vector3[]): ScreenBox | undefined {
    if (!points.length) return undefined;
    const { clientWidth: w, clientHeight: h } = this.canvas;
    const { min, max } = projectedBox(points, this.camera);
    const x = Math.max(0, ((min.x + 1) / 2) * w),
      y = Math.max(0, ((1 - max.y) / 2) * h);
    return { x, y, width: Math.min(w, ((max.x + 1) / 2) * w) - x, height: Math.min(h, ((1 - min.y) / 2) * h) - y };
  }

  /** the mechanism's box on screen now, in CSS pixels of the canvas (for tests) */
  mechanismOnScreen(): ScreenBox | undefined {
    return this.run ? this.onScreen(this.currentExtent()) : undefined;
  }

  /** one component's box on screen now (for tests: where its highlight may change pixels) */
  partOnScreen(name: string): ScreenBox | undefined {
    return this.onScreen(meshCorners(this.partsOf(name)));
  }

  /** the camera's position and target (for tests: a URDF's rotated box is compared from the same view) */
  cameraState(): { position: number[]; target: number[] } {
    return { position: this.camera.position.toArray(), target: this.controls.target.toArray() };
  }
}
