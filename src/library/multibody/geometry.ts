// What a component looks like, for the viewer: plain data, no equations.
export type Shape =
  | { type: 'box'; size: [number, number, number] }
  | { type: 'cylinder'; radius: number; length: number }
  | { type: 'sphere'; radius: number };

export interface Geometry {
  shape: Shape;
  /** CSS colour, e.g. "#c0392b" */
  color: string;
  /** where the shape's centre sits, in the component's frame_a coordinates */
  offset?: [number, number, number];
  /** for cylinders: the direction of the axis in frame_a coordinates */
  axis?: [number, number, number];
}
