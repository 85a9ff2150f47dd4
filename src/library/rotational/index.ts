// library/rotational: the drive-train classes of the relaxing paper
// (sections 3, 5, 10) plus sources and force elements.
export { flange } from './flange.ts';
export { Shaft, type ShaftOptions } from './shaft.ts';
export { ShaftS, type ShaftSOptions } from './shaft-s.ts';
export { Gear, type GearOptions } from './gear.ts';
export { TorqueSource, type TorqueSourceOptions } from './torque-source.ts';
export { Spring, type SpringOptions } from './spring.ts';
export { Damper, type DamperOptions } from './damper.ts';
