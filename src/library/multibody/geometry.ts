// What a component looks like, for the viewer: plain data, no equations.
/** a shape the viewer draws (m); each is centred on Geometry.offset */
export type Shape =
  | {
      /** a box */
      type: 'box';
      /** its side lengths along x, y, z */
      size: [number, number, number];
    }
  | {
      /** a solid cylinder along `axis` (Geometry.axis) */
      type: 'cylinder';
      /** its radius */
      radius: number;
      /** its length along the axis */
      length: number;
    }
  | {
      /** a sphere */
      type: 'sphere';
      /** its radius */
      radius: number;
    }
  | {
      /** a cylinder of `length` (along `axis`, as a cylinder) with half-spheres of its radius on both ends */
      type: 'capsule';
      /** the radius of the cylinder and of its end caps */
      radius: number;
      /** the cylinder's length, end caps not included */
      length: number;
    }
  | {
      /** an ellipsoid */
      type: 'ellipsoid';
      /** its semi-axes along its x, y, z */
      radii: [number, number, number];
    }
  | {
      /** a flat rectangle in its x-y plane, seen from both faces (an MJCF floor) */
      type: 'plane';
      /** its sides along x and y */
      size: [number, number];
    }
  | {
      /** a mesh file (STL, DAE or OBJ) */
      type: 'mesh';
      /** its name as the URDF or MJCF file gives it */
      filename: string;
      /** where it was found on the machine that wrote the run (absent: not found, drawn as a sphere of `radius`) */
      file?: string;
      /** scale factors along x, y, z */
      scale?: [number, number, number];
      /** the size the viewer assumes before the file loads: its placeholder sphere's radius */
      radius: number;
    };

/** the ground a mechanism stands on (an MJCF file's floor plane), drawn fixed in the world */
export interface Floor {
  /** a point of it, world coordinates */
  point: [number, number, number];
  /** its normal, world coordinates */
  normal: [number, number, number];
  /** CSS colour */
  color: string;
}

/** how the viewer draws a part: a shape and its colour */
export interface Geometry {
  /** the shape, in the part's frame */
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
