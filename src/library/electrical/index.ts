// library/electrical: the circuit elements of the relaxing paper (section 6)
// and the cut objects of the tearing paper (MeshCut, NodeCut, TearCut).
export { pin } from './pin.ts';
export { OnePort } from './one-port.ts';
export { Ground } from './ground.ts';
export { Resistor } from './resistor.ts';
export { ConstantVoltage } from './constant-voltage.ts';
export { Capacitor } from './capacitor.ts';
export { MeshCut } from './mesh-cut.ts';
export { NodeCut } from './node-cut.ts';
export { TearCut } from './tear-cut.ts';
