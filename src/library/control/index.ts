// library/control: controllers written as equations of the model, which
// define a joint's drive input (structure/defined-inputs.ts).
export { PD, type PDOptions, type Actuated } from './pd.ts';
export { ComputedTorque, type ComputedTorqueOptions } from './computed-torque.ts';
