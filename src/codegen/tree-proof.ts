// A proof, from the model's own equations, that what acts on a tree's
// coordinates besides its bodies, springs and dampers is per joint affine
// in the joint's own q and qd, with coefficients that depend on parameters
// and inputs alone: (mechanism) => undefined (proven), or why not.
// tree-dynamics.ts measures these forces as r0 + k q + b qd; with the proof
// the measurement holds at every (q, qd) until a parameter or an input
// changes, so a call need not run the model's own inverse code to check it.
//
// What is proven, symbolically (expr/diff.ts):
//  - every component of the mechanism is the tree (World, Body, Frame,
//    FixedTranslation, FixedRotation, Revolute, Prismatic), one of its
//    observers (Energy, Momentum, CentreOfMass, whose equations only read
//    the tree), or an Actuator, whose force variable is its equation's
//    right-hand side; anything else (a controller's equations, a force
//    element between bodies) could act in ways not seen here;
//  - every force applied to a joint (OneDofJoint.appliedForces), with the
//    actuators' forces substituted, depends only on that joint's q and qd,
//    on parameters and on inputs (not on time, another joint, a state of
//    its own such as an actuator's activation);
//  - its derivatives by q and by qd depend on neither q nor qd: the force is
//    affine in them (a clamp, min or max, or a cubic spring fails here).
import { type Expr, dependsOn, diff, show, substitute } from '../expr/index.ts';
import { Actuator } from '../library/multibody/actuator.ts';
import { Body } from '../library/multibody/body.ts';
import { Energy } from '../library/multibody/energy.ts';
import { FixedRotation } from '../library/multibody/fixed-rotation.ts';
import { FixedTranslation } from '../library/multibody/fixed-translation.ts';
import { Frame } from '../library/multibody/frame.ts';
import { OneDofJoint } from '../library/multibody/joint.ts';
import { CentreOfMass, Momentum } from '../library/multibody/momentum.ts';
import type { Mechanism } from '../library/multibody/mechanism.ts';
import { Prismatic } from '../library/multibody/prismatic.ts';
import { Revolute } from '../library/multibody/revolute.ts';
import { World } from '../library/multibody/world.ts';
import type { Component } from '../model/index.ts';
import { variablesIn } from '../model/variable.ts';

const TREE = [World, Body, Frame, FixedTranslation, FixedRotation, Revolute, Prismatic, Energy, Momentum, CentreOfMass];

/** undefined when the forces outside the tree are proven per-joint affine in (q, qd); else the reason */
export function proveAffine(mech: Mechanism): string | undefined {
  const components: Component[] = [];
  const walk = (c: Component) => (components.push(c), c.children.forEach(walk));
  mech.children.forEach(walk);
  if (mech.equations.length) return `the mechanism ${mech.path || mech.title} has equations of its own`;
  const defined = new Map<number, Expr>();
  for (const c of components) {
    if (c instanceof Actuator) {
      for (const eq of c.equations) {
        const v = eq.lhs.op === 'sym' ? eq.lhs.sym : undefined;
        if (!v || eq.residues.length) return `actuator ${c.path}: an equation that does not define a variable`;
        defined.set(v.id, eq.rhs);
      }
    } else if (!TREE.some((k) => c instanceof k)) return `component ${c.path} (${c.constructor.name}) is neither the tree nor an actuator`;
  }
  for (const j of components) {
    if (!(j instanceof OneDofJoint)) continue;
    const q = j.q.sym!,
      qd = j.qd.sym!;
    for (const applied of j.appliedForces) {
      let f = applied;
      // actuators' forces may read other actuators' (a tendon's): substitute until none is left
      for (let k = 0; k <= defined.size && [...variablesIn(f).keys()].some((id) => defined.has(id)); k++) f = substitute(f, defined);
      for (const v of variablesIn(f).values()) {
        if (v.id === q.id || v.id === qd.id || v.kind === 'parameter' || (v.kind === 'input' && !v.mode)) continue;
        return `the force ${show(applied)} on ${j.path} depends on ${v.name}`;
      }
      for (const by of [q, qd]) {
        const d = diff(f, by);
        if (dependsOn(d, q.id) || dependsOn(d, qd.id)) return `the force ${show(applied)} on ${j.path} is not affine in its q and qd`;
      }
    }
  }
  return undefined;
}
