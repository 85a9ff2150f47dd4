// The three.js view of a run: one group per pose frame (moved every time
// step), shapes attached to their frame, rods between frames, joint axes,
// world frame and ground grid, and an orbit camera framed on the box that
// holds the mechanism over the whole run.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { runBounds } from '../../src/io/bounds.ts';
import { posesAtInto } from '../../src/io/poses.ts';
import { POSE_STRIDE, type Poses, type Scene, type SceneLink, type Vec3Tuple } from '../../src/io/types.ts';
import type { Geometry } from '../../src/library/multibody/geometry.ts';

const Y = new THREE.Vector3(0, 1, 0);
const BACKGROUND = '#eef1f4';

/** a unit cylinder (radius 1, height 1 along y) rotated and scaled into a rod joining two points */
function placeRod(mesh: THREE.Object3D, a: THREE.Vector3, b: THREE.Vector3, radius: number): void {
  const d = new THREE.Vector3().subVectors(b, a);
  const length = d.length();
  mesh.visible = length > 1e-9;
  if (!mesh.visible) return;
  mesh.position.addVectors(a, b).multiplyScalar(0.5);
  mesh.quaternion.setFromUnitVectors(Y, d.divideScalar(length));
  mesh.scale.set(radius, length, radius);
}

function boxCorners(box: THREE.Box3): THREE.Vector3[] {
  return [0, 1, 2, 3, 4, 5, 6, 7].map((i) => new THREE.Vector3(
    i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z));
}

/** add child to parent and return the child */
function attach<T extends THREE.Object3D>(parent: THREE.Object3D, child: T): T {
  parent.add(child);
  return child;
}

function shapeMesh(g: Geometry): THREE.Mesh {
  const material = new THREE.MeshStandardMaterial({ color: g.color, roughness: 0.55, metalness: 0.1 });
  const s = g.shape;
  const geometry =
    s.type === 'box' ? new THREE.BoxGeometry(...s.size)
    : s.type === 'sphere' ? new THREE.SphereGeometry(s.radius, 32, 16)
    : new THREE.CylinderGeometry(s.radius, s.radius, s.length, 32);
  const mesh = new THREE.Mesh(geometry, material);
  mesh.position.set(...(g.offset ?? [0, 0, 0]));
  // cylinders: three's axis is y; ours is geometry.axis (default x, the length direction of links)
  if (s.type === 'cylinder') mesh.quaternion.setFromUnitVectors(Y, new THREE.Vector3(...(g.axis ?? [1, 0, 0])).normalize());
  return mesh;
}

/** a thin cylinder along a joint axis, or a ball for joints without one */
function jointMarker(type: string, axis: Vec3Tuple | undefined, size: number): THREE.Object3D {
  const color = type === 'prismatic' ? '#00a8c6' : '#f1c40f';
  const material = new THREE.MeshStandardMaterial({ color, roughness: 0.4 });
  if (!axis) return new THREE.Mesh(new THREE.SphereGeometry(size * 0.12, 20, 10), material);
  const mesh = new THREE.Mesh(new THREE.CylinderGeometry(size * 0.06, size * 0.06, size, 20), material);
  mesh.quaternion.setFromUnitVectors(Y, new THREE.Vector3(...axis).normalize());
  return mesh;
}

export interface ScreenBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export class SceneView {
  readonly renderer: THREE.WebGLRenderer;
  private readonly three = new THREE.Scene();
  private readonly camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
  private readonly controls: OrbitControls;
  private content = new THREE.Group();
  private frames: THREE.Group[] = [];
  private rods: { mesh: THREE.Mesh; link: SceneLink }[] = [];
  private frameAxes: THREE.Object3D[] = [];
  private jointAxes: THREE.Object3D[] = [];
  private pose = new Float32Array(0);
  private run: { scene: Scene; poses: Poses; time: ArrayLike<number> } | undefined;
  private dirty = true;
  private readonly resizes = new ResizeObserver(() => this.resize());
  showFrames = false;
  showJointAxes = true;

  constructor(readonly canvas: HTMLCanvasElement) {
    // preserveDrawingBuffer: the PNG button and tests read the canvas after rendering
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio);
    this.three.background = new THREE.Color(BACKGROUND);
    this.three.add(this.content);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener('change', () => (this.dirty = true));
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

  /** build the scene graph of a run and frame the camera on it */
  load(scene: Scene, poses: Poses, time: ArrayLike<number>): void {
    this.three.remove(this.content);
    this.content.traverse((o) => {
      if (o instanceof THREE.Mesh) o.geometry.dispose();
    });
    this.content = new THREE.Group();
    this.three.add(this.content);
    this.run = { scene, poses, time };
    this.pose = new Float32Array(poses.frames * POSE_STRIDE);
    const bounds = runBounds(scene, poses);
    const box = new THREE.Box3(new THREE.Vector3(...bounds.min), new THREE.Vector3(...bounds.max));
    const size = box.getSize(new THREE.Vector3()).length() || 1;
    const up = new THREE.Vector3(...scene.gravity).negate();
    if (up.lengthSq() < 1e-12) up.set(0, 1, 0);
    up.normalize();
    const mechanism = new THREE.Group();
    this.frames = scene.frames.map(() => attach(mechanism, new THREE.Group()));
    this.frameAxes = this.frames.filter((_, f) => f !== scene.world).map((g) => attach(g, new THREE.AxesHelper(size * 0.06)));
    for (const s of scene.shapes) this.frames[s.frame].add(shapeMesh(s.geometry));
    const rodGeometry = new THREE.CylinderGeometry(1, 1, 1, 20);
    this.rods = scene.links.map((link) => {
      const mesh = new THREE.Mesh(rodGeometry, new THREE.MeshStandardMaterial({ color: link.color, roughness: 0.6 }));
      mechanism.add(mesh);
      return { mesh, link };
    });
    this.jointAxes = scene.joints.map((j) => attach(this.frames[j.frame], jointMarker(j.type, j.axis, size * 0.05)));
    const worldFrame = new THREE.AxesHelper(size * 0.15);
    this.content.add(mechanism, worldFrame, this.grid(box, up), ...this.lights(up));
    this.frameCamera(box, up);
    this.setShowFrames(this.showFrames);
    this.setShowJointAxes(this.showJointAxes);
    this.setTime(0);
  }

  /** the ground: a grid normal to gravity, just below everything drawn */
  private grid(box: THREE.Box3, up: THREE.Vector3): THREE.Object3D {
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

  private lights(up: THREE.Vector3): THREE.Light[] {
    const sky = new THREE.HemisphereLight('#ffffff', '#667788', 2.2);
    sky.position.copy(up);
    const sun = new THREE.DirectionalLight('#ffffff', 1.6);
    sun.position.copy(up).multiplyScalar(2).add(new THREE.Vector3(1, 1, 1));
    return [sky, sun];
  }

  /**
   * Look along the box's thinnest direction (the normal of a planar
   * mechanism's plane), tilted towards up and to the side, from the distance
   * at which the box's bounding sphere fills the view.
   */
  private frameCamera(box: THREE.Box3, up: THREE.Vector3): void {
    const centre = box.getCenter(new THREE.Vector3());
    const size = box.getSize(new THREE.Vector3());
    const radius = Math.max(size.length() / 2, 1e-3);
    const thin = [size.x, size.y, size.z].indexOf(Math.min(size.x, size.y, size.z));
    let view = new THREE.Vector3().setComponent(thin, 1);
    if (Math.abs(view.dot(up)) > 0.9) view = new THREE.Vector3(1, 0, 0).projectOnPlane(up).normalize();
    if (view.lengthSq() < 1e-6) view = new THREE.Vector3(0, 0, 1).projectOnPlane(up).normalize();
    const side = new THREE.Vector3().crossVectors(up, view).normalize();
    view.addScaledVector(up, 0.35).addScaledVector(side, 0.3).normalize();
    const fov = THREE.MathUtils.degToRad(this.camera.fov);
    const narrowest = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * this.camera.aspect));
    let distance = (radius / Math.sin(narrowest / 2)) * 1.05; // the bounding sphere fits: a start
    this.camera.up.copy(up);
    this.camera.near = distance / 100;
    this.camera.far = distance * 100;
    this.camera.updateProjectionMatrix();
    // then move in until the box's corners fill 85% of the view (projected size ~ 1 / distance)
    for (let i = 0; i < 3; i++) {
      this.camera.position.copy(centre).addScaledVector(view, distance);
      this.camera.lookAt(centre);
      this.camera.updateMatrixWorld();
      const ndc = boxCorners(box).map((c) => c.project(this.camera));
      const reach = Math.max(...ndc.map((p) => Math.max(Math.abs(p.x), Math.abs(p.y))));
      distance *= Math.min(1, Math.max(0.3, reach / 0.85));
    }
    this.camera.position.copy(centre).addScaledVector(view, distance);
    this.controls.target.copy(centre);
    this.controls.update();
  }

  /** move every frame to its pose at time t */
  setTime(t: number): void {
    if (!this.run) return;
    const { poses, time } = this.run;
    posesAtInto(this.pose, poses, time, t);
    this.frames.forEach((g, f) => {
      const o = f * POSE_STRIDE, p = this.pose;
      g.position.set(p[o], p[o + 1], p[o + 2]);
      g.quaternion.set(p[o + 3], p[o + 4], p[o + 5], p[o + 6]);
    });
    for (const { mesh, link } of this.rods) placeRod(mesh, this.frames[link.from].position, this.frames[link.to].position, link.radius);
    this.dirty = true;
  }

  setShowFrames(on: boolean): void {
    this.showFrames = on;
    for (const a of this.frameAxes) a.visible = on;
    this.dirty = true;
  }

  setShowJointAxes(on: boolean): void {
    this.showJointAxes = on;
    for (const a of this.jointAxes) a.visible = on;
    this.dirty = true;
  }

  /** render if anything changed (or always, e.g. while recording video) */
  render(force = false): void {
    if (!this.dirty && !force) return;
    this.dirty = false;
    this.renderer.render(this.three, this.camera);
  }

  /** the mechanism's box on screen now, in CSS pixels of the canvas (for tests) */
  mechanismOnScreen(): ScreenBox | undefined {
    if (!this.run) return undefined;
    const box = new THREE.Box3();
    this.content.updateMatrixWorld(true);
    for (const g of this.frames) box.expandByObject(g);
    for (const { mesh } of this.rods) if (mesh.visible) box.expandByObject(mesh);
    const { clientWidth: w, clientHeight: h } = this.canvas;
    const pts = boxCorners(box).map((c) => c.project(this.camera));
    const xs = pts.map((p) => ((p.x + 1) / 2) * w), ys = pts.map((p) => ((1 - p.y) / 2) * h);
    const x = Math.max(0, Math.min(...xs)), y = Math.max(0, Math.min(...ys));
    return { x, y, width: Math.min(w, Math.max(...xs)) - x, height: Math.min(h, Math.max(...ys)) - y };
  }
}
