// Framing the camera on what is drawn: look along the thinnest direction of
// the mechanism's box (the normal of a planar mechanism's plane) tilted
// towards up and to the side, then move in or out and sideways until the
// drawn parts fill the view up to a margin, centred. The parts are taken as
// the corners of each mesh's own bounding box (tight for rods and links;
// the corners of one box around everything would leave a diagonal link at a
// fraction of the view).
import * as THREE from 'three';

/** the box's projection reaches this fraction of the half-view: a margin of ~12% on the limiting side */
export const FILL = 0.88;

export function boxCorners(box: THREE.Box3): THREE.Vector3[] {
  return [0, 1, 2, 3, 4, 5, 6, 7].map((i) => new THREE.Vector3(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z));
}

/** the direction the camera looks from (towards the centre), for a mechanism that reaches `extent` */
export function viewDirection(extent: THREE.Box3, up: THREE.Vector3): THREE.Vector3 {
  const size = extent.getSize(new THREE.Vector3());
  const thin = [size.x, size.y, size.z].indexOf(Math.min(size.x, size.y, size.z));
  let view = new THREE.Vector3().setComponent(thin, 1);
  if (Math.abs(view.dot(up)) > 0.9) view = new THREE.Vector3(1, 0, 0).projectOnPlane(up).normalize();
  if (view.lengthSq() < 1e-6) view = new THREE.Vector3(0, 0, 1).projectOnPlane(up).normalize();
  const side = new THREE.Vector3().crossVectors(up, view).normalize();
  return view.addScaledVector(up, 0.35).addScaledVector(side, 0.3).normalize();
}

/** visible: the object and all its ancestors */
function shown(o: THREE.Object3D): boolean {
  for (let x: THREE.Object3D | null = o; x; x = x.parent) if (!x.visible) return false;
  return true;
}

// (objects) => the world-space corners of every visible mesh's bounding box below them
export function meshCorners(objects: readonly THREE.Object3D[], skip: ReadonlySet<THREE.Object3D> = new Set()): THREE.Vector3[] {
  const out: THREE.Vector3[] = [];
  for (const root of objects) {
    root.updateMatrixWorld(true);
    root.traverse((o) => {
      if (!(o instanceof THREE.Mesh) || skip.has(o) || !shown(o)) return;
      if (!o.geometry.boundingBox) o.geometry.computeBoundingBox();
      for (const c of boxCorners(o.geometry.boundingBox!)) out.push(c.applyMatrix4(o.matrixWorld));
    });
  }
  return out;
}

/** the points' box on screen, in normalised device coordinates */
export function projectedBox(points: readonly THREE.Vector3[], camera: THREE.Camera): { min: THREE.Vector2; max: THREE.Vector2 } {
  const min = new THREE.Vector2(Infinity, Infinity),
    max = new THREE.Vector2(-Infinity, -Infinity);
  for (const p of points) {
    const q = p.clone().project(camera);
    min.min(new THREE.Vector2(q.x, q.y));
    max.max(new THREE.Vector2(q.x, q.y));
  }
  return { min, max };
}

// (camera, points, view direction, up) => camera moved to look along view at the points, which fill FILL of the view, centred; returns the target
export function fitPoints(camera: THREE.PerspectiveCamera, points: readonly THREE.Vector3[], view: THREE.Vector3, up: THREE.Vector3): THREE.Vector3 {
  const box = new THREE.Box3().setFromPoints(points as THREE.Vector3[]);
  const centre = box.getCenter(new THREE.Vector3());
  const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-3);
  const tanY = Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2),
    tanX = tanY * camera.aspect;
  let distance = radius / Math.min(tanX, tanY) + radius; // the bounding sphere fits: a start
  camera.up.copy(up);
  const right = new THREE.Vector3(),
    upward = new THREE.Vector3(),
    p = new THREE.Vector3();
  for (let i = 0; i < 6; i++) {
    camera.position.copy(centre).addScaledVector(view, distance);
    camera.lookAt(centre);
    camera.updateMatrixWorld();
    // in camera coordinates: x right, y up, depth -z
    const local = points.map((q) => p.copy(q).applyMatrix4(camera.matrixWorldInverse).clone());
    // the middle of what is seen (directions x / depth), as an offset in the target's plane
    // (loops, not Math.min(...xs): a large mechanism has more points than a call takes arguments)
    let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
    for (const q of local) {
      const u = q.x / -q.z,
        v = q.y / -q.z;
      [x0, x1, y0, y1] = [Math.min(x0, u), Math.max(x1, u), Math.min(y0, v), Math.max(y1, v)];
    }
    const cx = ((x0 + x1) / 2) * distance,
      cy = ((y0 + y1) / 2) * distance;
    right.setFromMatrixColumn(camera.matrixWorld, 0);
    upward.setFromMatrixColumn(camera.matrixWorld, 1);
    centre.addScaledVector(right, cx).addScaledVector(upward, cy);
    // the nearest target distance at which every point, at its depth relative to the target, is within FILL of the view
    let needed = radius * 1e-3;
    for (const q of local) needed = Math.max(needed, Math.max(Math.abs(q.x - cx) / (FILL * tanX), Math.abs(q.y - cy) / (FILL * tanY)) + (distance + q.z));
    distance = needed;
  }
  camera.position.copy(centre).addScaledVector(view, distance);
  camera.lookAt(centre);
  camera.near = distance / 100;
  camera.far = distance * 100;
  camera.updateProjectionMatrix();
  return centre;
}
