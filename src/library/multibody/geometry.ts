// What a component looks like, for the viewer: plain data, no equations.
export type Shape =
  | { type: 'box'; size: [number, number, number] }
  | { type: 'cylinder'; radius: number; length: number }
  | { type: 'sphere'; radius: number }
  /** a cylinder of `length` (along `axis`, as a cylinder) with half-spheres of its radius on both ends */
  | { type: 'capsule'; radius: number; length: number }
  /** an ellipsoid of these semi-axes along its x, y, z */
  | { type: 'ellipsoid'; radii: [number, number, number] }
  /** a flat rectangle of these sides in its x-y plane, seen from both faces (an MJCF floor) */
  | { type: 'plane'; size: [number, number] }
  /**
   * a mesh file (STL, DAE or OBJ) as a URDF names it; `file` is where it was
   * found on the machine that wrote the run (absent: not found, drawn as a
   * sphere of `radius`, the size the viewer assumes before the file loads)
   */
  | { type: 'mesh'; filename: string; file?: string; scale?: [number, number, number]; radius: number };

/** the ground a mechanism stands on (an MJCF file's floor plane), drawn fixed in the world */
export interface Floor {
  /** a point of it and its normal, world coordinates */
  point: [number, number, number];
  normal: [number, number, number];
  /** CSS colour */
  color: string;
}

export interface Geometry {
  shape: Shape;
  /** CSS colour, e.g. "#c0392b" */
  color: string;
  /** where the shape's centre sits, in the component's frame_a coordinates */
  offset?: [number, number, number];
  /** for cylinders: the direction of the axis in frame_a coordinates */
  axis?: [number, number, number];
  /** the shape's rotation into frame_a coordinates, a unit quaternion [x, y, z, w] (after `axis`) */
  orientation?: [number, number, number, number];
}
