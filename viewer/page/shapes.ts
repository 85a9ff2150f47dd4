// The three.js objects of a scene's parts: a shape in its frame (box,
// sphere, cylinder, or a mesh file loaded by three.js's STL, Collada or OBJ
// loader behind a placeholder sphere), a rod between two frames, a joint's
// marker. Materials are one per object, so that one part can be highlighted.
import * as THREE from 'three';
import { ColladaLoader } from 'three/examples/jsm/loaders/ColladaLoader.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import type { Vec3Tuple } from '../../src/io/types.ts';
import type { Geometry, Shape } from '../../src/library/multibody/geometry.ts';

export const Y = new THREE.Vector3(0, 1, 0);

const material = (color: string) => new THREE.MeshStandardMaterial({ color, roughness: 0.55, metalness: 0.1 });

/** a unit cylinder (radius 1, height 1 along y) rotated and scaled into a rod joining two points */
export function placeRod(mesh: THREE.Object3D, a: THREE.Vector3, b: THREE.Vector3, radius: number): void {
  const d = new THREE.Vector3().subVectors(b, a);
  const length = d.length();
  mesh.visible = length > 1e-9;
  if (!mesh.visible) return;
  mesh.position.addVectors(a, b).multiplyScalar(0.5);
  mesh.quaternion.setFromUnitVectors(Y, d.divideScalar(length));
  mesh.scale.set(radius, length, radius);
}

/** where the viewer fetches a mesh file from (the server's route), or undefined when it has none */
export type MeshUrl = (shape: Extract<Shape, { type: 'mesh' }>) => string | undefined;

export interface ShapeCallbacks {
  meshUrl: MeshUrl;
  /** a mesh loaded (redraw) */
  loaded: () => void;
  /** a mesh could not be loaded: its placeholder stays */
  missing: (filename: string, why: string) => void;
}

/** the object a mesh file gives, in one colour */
function meshFromFile(data: THREE.BufferGeometry | THREE.Object3D, color: string): THREE.Object3D {
  if (data instanceof THREE.BufferGeometry) {
    data.computeVertexNormals();
    return new THREE.Mesh(data, material(color));
  }
  data.traverse((o) => {
    if (o instanceof THREE.Mesh) o.material = material(color);
  });
  return data;
}

function loadMesh(url: string, parent: THREE.Object3D, placeholder: THREE.Object3D, g: Geometry, on: ShapeCallbacks, filename: string): void {
  const ext = url.slice(url.lastIndexOf('.') + 1).toLowerCase();
  const done = (data: THREE.BufferGeometry | THREE.Object3D) => {
    const object = meshFromFile(data, g.color);
    const s = g.shape.type === 'mesh' ? g.shape.scale : undefined;
    if (s) object.scale.set(...s);
    parent.remove(placeholder);
    parent.add(object);
    on.loaded();
  };
  const fail = (e: unknown) => on.missing(filename, e instanceof Error ? e.message : String(e));
  if (ext === 'stl') new STLLoader().load(url, done, undefined, fail);
  else if (ext === 'obj') new OBJLoader().load(url, done, undefined, fail);
  else if (ext === 'dae') {
    // the Collada loader turns a Z_UP file to three's y up; URDF meshes are in link coordinates as they are
    new ColladaLoader().load(url, (c) => (c ? (c.scene.rotation.set(0, 0, 0), done(c.scene)) : fail(new Error('empty Collada file'))), undefined, fail);
  } else fail(new Error(`no loader for .${ext}`));
}

// (geometry) => an object placed in its frame; a mesh file is fetched and replaces its placeholder when it arrives
export function shapeObject(g: Geometry, on: ShapeCallbacks): THREE.Object3D {
  const s = g.shape;
  const group = new THREE.Group();
  group.position.set(...(g.offset ?? [0, 0, 0]));
  // cylinders and capsules: three's axis is y; ours is geometry.axis (default x, the length direction of links)
  if (s.type === 'cylinder' || s.type === 'capsule') group.quaternion.setFromUnitVectors(Y, new THREE.Vector3(...(g.axis ?? [1, 0, 0])).normalize());
  if (g.orientation) group.quaternion.premultiply(new THREE.Quaternion(...g.orientation));
  const geometry =
    s.type === 'box'
      ? new THREE.BoxGeometry(...s.size)
      : s.type === 'cylinder'
        ? new THREE.CylinderGeometry(s.radius, s.radius, s.length, 32)
        : s.type === 'capsule'
          ? new THREE.CapsuleGeometry(s.radius, s.length, 8, 32)
          : s.type === 'plane'
            ? new THREE.PlaneGeometry(...s.size)
            : // an ellipsoid is a unit sphere scaled below; a mesh's placeholder a sphere of its size
              new THREE.SphereGeometry(s.type === 'ellipsoid' ? 1 : s.radius, 32, 16);
  const mesh = new THREE.Mesh(geometry, material(g.color));
  if (s.type === 'ellipsoid') mesh.scale.set(...s.radii);
  // a floor is seen from below too when the camera dips under it
  if (s.type === 'plane') (mesh.material as THREE.MeshStandardMaterial).side = THREE.DoubleSide;
  group.add(mesh);
  if (s.type === 'mesh') {
    const url = on.meshUrl(s);
    if (url) loadMesh(url, group, mesh, g, on, s.filename);
    else on.missing(s.filename, 'not found next to the URDF');
  }
  return group;
}

/**
 * A joint drawn as what it is, sized s (5% of the mechanism): a revolute
 * joint a drum along its axis, a prismatic one a rod along its axis (the
 * guide), others (ball, cardan) a ball.
 */
export function jointMarker(type: string, axis: Vec3Tuple | undefined, s: number): THREE.Object3D {
  const color = type === 'prismatic' ? '#00a8c6' : '#f1c40f';
  const m = new THREE.MeshStandardMaterial({ color, roughness: 0.4 });
  if (!axis) return new THREE.Mesh(new THREE.SphereGeometry(s * 0.5, 24, 12), m);
  const mesh =
    type === 'prismatic'
      ? new THREE.Mesh(new THREE.CylinderGeometry(s * 0.2, s * 0.2, s * 3, 16), m)
      : new THREE.Mesh(new THREE.CylinderGeometry(s * 0.6, s * 0.6, s * 0.8, 24), m);
  mesh.quaternion.setFromUnitVectors(Y, new THREE.Vector3(...axis).normalize());
  return mesh;
}

/** the emissive glow of a selected part (MuJoCo's selection highlight) */
const HIGHLIGHT = new THREE.Color('#ff3b7f');

/** set or clear the highlight on every mesh below the objects */
export function setHighlight(objects: readonly THREE.Object3D[], on: boolean): void {
  for (const o of objects) {
    o.traverse((x) => {
      if (x instanceof THREE.Mesh && x.material instanceof THREE.MeshStandardMaterial) {
        x.material.emissive.copy(on ? HIGHLIGHT : new THREE.Color(0x000000));
        x.material.emissiveIntensity = on ? 0.8 : 1;
      }
    });
  }
}
