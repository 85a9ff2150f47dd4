// Components declare local variables, equations and connectors; connecting
// connectors adds equations at flattening (across quantities equal, through
// quantities sum to zero). Library classes extend Component.
import { type Ex, type Expr, ex, stripResidues, sub, vec3, type Vec3 } from '../expr/index.ts';
import { ModelError } from '../errors.ts';
import { Variable, type VariableOptions } from './variable.ts';
import { type EventDeclaration, type WhenActions, checkWhen } from './events.ts';

/** a scalar, or a (nested) array of scalars: vectors and matrices */
export type Quantity = Ex | readonly Quantity[];

/** the quantities of a connector, by name: what a connection equates and what it sums */
export interface ConnectorSpec {
  /** potential-like quantities, equal at a connection (w, a; R, r, v, ...) */
  across?: Record<string, Quantity>;
  /** flow-like quantities, summing to zero at a connection (torque, force, current) */
  through?: Record<string, Quantity>;
}

/** a point where components connect (a multibody frame, an electrical pin, a rotational flange) */
export class Connector {
  constructor(
    /** the component it belongs to */
    readonly owner: Component,
    /** its name within the owner ('' when it is the owner itself, e.g. a Frame) */
    readonly localName: string,
    /** quantities equal at a connection (positions, velocities, potentials) */
    readonly across: Readonly<Record<string, Quantity>>,
    /** quantities summing to zero at a connection (forces, torques, currents) */
    readonly through: Readonly<Record<string, Quantity>>,
  ) {}
  /** its full hierarchical name, e.g. `j1.frame_a` */
  get name(): string {
    if (!this.localName) return this.owner.path; // a connector that is its component (e.g. a Frame)
    return this.owner.path ? `${this.owner.path}.${this.localName}` : this.localName;
  }
}

/** one equation lhs = rhs as a component declares it */
export interface Equation {
  /** the left-hand side */
  lhs: Expr;
  /** the right-hand side */
  rhs: Expr;
  /** lhs - rhs with residue() terms removed */
  residual: Expr;
  /** arguments of the residue() terms: the tearing hints this equation carries */
  residues: Expr[];
  /** the component that declared it (errors name it) */
  origin: Component;
}

/** a connector, or a component that is one (it exposes its connector as `cut`) */
export type Connectable =
  | Connector
  | {
      /** the connector the component stands for */
      readonly cut: Connector;
    };

const cutOf = (c: Connectable): Connector => (c instanceof Connector ? c : c.cut);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[\d+\])*$/;

/** a quantity's scalars in order (a vector's components, a matrix row by row) */
export function flattenQuantity(q: Quantity): Expr[] {
  if (Array.isArray(q)) return (q as readonly Quantity[]).flatMap(flattenQuantity);
  return [ex(q as Ex)];
}

/**
 * A part of a model: local variables, equations and connectors, and
 * children. Library classes (bodies, joints, resistors, ...) extend it; a
 * model is a tree of components whose connections flattening turns into
 * equations.
 */
export class Component {
  /** the component it was added to (undefined: not added yet, or the model) */
  parent: Component | undefined;
  /** its sub-components, in the order they were added */
  readonly children: Component[] = [];
  /** its children's names, made with its first child: most components (a resistor, a body) have none, and a Set costs ~130 bytes */
  private childNames: Set<string> | undefined;
  /** the variables it declares (states, unknowns, parameters, inputs) */
  readonly variables: Variable[] = [];
  /** the equations it declares */
  readonly equations: Equation[] = [];
  /** its connectors */
  readonly connectors: Connector[] = [];
  /** the connections made inside it (pairs of connectors) */
  readonly connections: [Connector, Connector][] = [];
  /** zero-crossing events this component declares (when()) */
  readonly events: EventDeclaration[] = [];

  constructor(
    /** its name within its parent (letters, digits, underscores) */
    readonly localName: string,
  ) {
    if (localName !== '' && !NAME.test(localName)) {
      throw new ModelError(`invalid component name "${localName}"`, {
        hint: 'use letters, digits and underscores, starting with a letter',
      });
    }
  }

  /** its full hierarchical name, e.g. `arm.j1`: the prefix of its signals (`arm.j1.q`) */
  get path(): string {
    const p = this.parent?.path;
    return p ? `${p}.${this.localName}` : this.localName;
  }

  /**
   * Called once by flattening, parents before children, when the model is
   * complete: components whose equations depend on how they are connected
   * (a joint that turns out to close a kinematic loop) declare them here.
   */
  elaborate(): void {}

  /**
   * Poses where this component's equations are singular, which a run must
   * not reach or pass: a state whose cosine vanishes there (a Cardan joint's
   * middle angle at +-90 degrees). Run time watches them (ModelState): a
   * cosine that changes sign between two evaluations, or whose trend does,
   * stops the run with the component's own message and hint. Asked after
   * elaboration; none by default.
   */
  singularPoses(): readonly SingularPose[] {
    return [];
  }

  /**
   * Groups of states whose Euclidean norm is 1 and that the integrators bring
   * back to 1 after every step (a joint's unit quaternion: its kinematics keep
   * the norm only in exact arithmetic). Asked after elaboration; none by default.
   */
  unitNorms(): readonly (readonly Expr[])[] {
    return [];
  }

  /** make child a part of this component */
  add<T extends Component>(child: T): T {
    if (child.parent) throw new ModelError(`component ${child.path} is already part of ${child.parent.path || 'the model'}`);
    // a set, not a scan of the children: a grid of 9e4 nodes adds 3.6e5 components (O(n^2) otherwise)
    const names = (this.childNames ??= new Set());
    if (names.has(child.localName)) {
      throw new ModelError(`two components named "${child.localName}" in ${this.path || 'the model'}`, {
        component: child.localName,
        hint: 'give every component a unique name within its parent',
      });
    }
    child.parent = this;
    this.children.push(child);
    names.add(child.localName);
    return child;
  }

  private declare(name: string, kind: Variable['kind'], options?: VariableOptions): Variable {
    if (!NAME.test(name)) throw new ModelError(`invalid variable name "${name}"`, { component: this.path });
    if (this.variables.some((v) => v.localName === name)) {
      throw new ModelError(`variable "${name}" declared twice`, { component: this.path });
    }
    const v = new Variable(this, name, kind, options);
    this.variables.push(v);
    return v;
  }

  /** a known constant of the model (folded into the equations at compile time by default) */
  parameter(name: string, value: number, options?: VariableOptions): Expr {
    if (!Number.isFinite(value)) {
      throw new ModelError(`parameter ${this.path}.${name} = ${value} is not a finite number`, {
        component: this.path,
        variables: [`${this.path}.${name}`],
        hint: 'give the parameter a finite numeric value',
      });
    }
    const v = this.declare(name, 'parameter', options);
    v.value = value;
    return v.e;
  }

  /** an unknown; it becomes a state if der() is applied to it */
  variable(name: string, options?: VariableOptions): Expr {
    return this.declare(name, 'algebraic', options).e;
  }

  /** three unknowns name[1], name[2], name[3] */
  vector(name: string, start?: readonly number[]): Vec3 {
    const [x, y, z] = [1, 2, 3].map((i) => this.variable(`${name}[${i}]`, { start: start?.[i - 1] }));
    return vec3(x, y, z);
  }

  /** a known quantity supplied from outside at every evaluation (default: its start value) */
  input(name: string, start = 0, options?: VariableOptions): Expr {
    return this.declare(name, 'input', { ...options, start }).e;
  }

  /**
   * A mode: a discrete variable the equations may branch on (through step(),
   * sign(), min/max), constant between events and changed only by a when()
   * action's `set`. At run time it is held like an input (ModelState.u).
   */
  mode(name: string, start = 0, options?: VariableOptions): Expr {
    return this.declare(name, 'input', { ...options, start, mode: true }).e;
  }

  /**
   * An event (Modelica's `when`): when `indicator` (states, inputs, modes,
   * parameters, unknowns, time) crosses zero in `direction`, the run stops
   * at the crossing and applies the actions: `reinit` gives states new
   * values, `set` gives modes new values. Every action's value is read
   * before any is applied (each variable in them is Modelica's pre(v)).
   */
  when(name: string, indicator: Ex, actions: WhenActions): void {
    checkWhen(this, name, actions);
    this.events.push({
      localName: name,
      indicator: ex(indicator),
      direction: actions.direction ?? 'both',
      reinit: (actions.reinit ?? []).map(([v, e]) => [v, ex(e)]),
      set: (actions.set ?? []).map(([v, e]) => [v, ex(e)]),
      origin: this,
    });
  }

  /** lhs = rhs; residue(x) terms inside mark tearing hints (tearing paper) */
  equation(lhs: Ex, rhs: Ex): void {
    const l = ex(lhs),
      r = ex(rhs);
    const { expr, residues } = stripResidues(sub(l, r));
    this.equations.push({ lhs: l, rhs: r, residual: expr, residues, origin: this });
  }

  /** element-wise equations between two quantities of the same shape */
  vectorEquation(lhs: Quantity, rhs: Quantity): void {
    const l = flattenQuantity(lhs),
      r = flattenQuantity(rhs);
    if (l.length !== r.length) throw new ModelError(`equation between quantities of sizes ${l.length} and ${r.length}`, { component: this.path });
    l.forEach((li, i) => this.equation(li, r[i]));
  }

  /** a connector; the name '' makes the component itself the connector (e.g. a Frame) */
  connector(name: string, spec: ConnectorSpec): Connector {
    if (name !== '' && !NAME.test(name)) throw new ModelError(`invalid connector name "${name}"`, { component: this.path });
    if (this.connectors.some((c) => c.localName === name)) {
      throw new ModelError(`connector "${name}" declared twice`, { component: this.path });
    }
    const c = new Connector(this, name, spec.across ?? {}, spec.through ?? {});
    this.connectors.push(c);
    return c;
  }

  /**
   * Checks the values of this component's parameters after `--set`
   * overrides (given its local parameter names); throws a ModelError for
   * values it cannot work with (e.g. a negative mass). By default: none.
   */
  checkParameters(_value: (localName: string) => number): void {}

  /**
   * What the component noticed about how it was built that is allowed but
   * may not be meant (a body given no inertia is a point mass): the compile
   * report's diagnostics, printed as warnings by the CLI. None by default.
   */
  notes(): string[] {
    return [];
  }

  /** connect two connectors (or components that are a connector, such as frames) */
  connect(from: Connectable, to: Connectable): void {
    const a = cutOf(from),
      b = cutOf(to);
    if (a === b) throw new ModelError(`connector ${a.name} connected to itself`, { component: a.owner.path });
    this.connections.push([a, b]);
  }
}

/** root and every component below it, parents before children */
export function components(root: Component): Component[] {
  const out: Component[] = [];
  const stack = [root];
  while (stack.length) {
    const c = stack.pop()!;
    out.push(c);
    for (let i = c.children.length - 1; i >= 0; i--) stack.push(c.children[i]);
  }
  return out;
}

/** a singular pose of a component: where cos(state) = 0 (Component.singularPoses) */
export interface SingularPose {
  /** the state whose cosine vanishes at the singular pose */
  readonly state: Expr;
  /** states whose magnitude grows as 1 / cos(state) near the pose (a Cardan joint's outer rates): a step must resolve them there */
  readonly rates: readonly Expr[];
  /** what passing it means, after the component's name: "<component> <what>" */
  readonly what: string;
  /** how to avoid it */
  readonly hint: string;
}

/** the root of a model; its children are named without a prefix */
export class Model extends Component {
  constructor(
    /** the model's name (compile reports and results carry it) */
    readonly title: string,
  ) {
    super('');
  }

  /** structural facts for the compile report (a Mechanism: its kinematic loops), if any */
  describeStructure(): unknown {
    return undefined;
  }

  /**
   * Parameters whose defaults derive from other parameters' values, given
   * the values after --set (by full name): what they become, by full name
   * (a Mechanism's joint-limit springs, sized from the bodies beyond them).
   * Flattening applies them when --set changed a value, except to a
   * parameter --set gives itself. None by default.
   */
  derivedParameters(_value: (name: string) => number): Record<string, number> {
    return {};
  }

  /**
   * The generalized coordinates of the model's inverse problem, once
   * elaborated: for each, the position q and speed qd (states), the
   * acceleration qdd (an unknown of forward dynamics) and the generalized
   * force tau (an input of forward dynamics). compile(model, { problem:
   * 'inverse' }) swaps the causality of qdd and tau. None by default; a
   * Mechanism gives its state joints' coordinates.
   */
  generalizedCoordinates(): GeneralizedCoordinate[] {
    return [];
  }
}

/** one generalized coordinate: q, qd states with der(q) = qd, der(qd) = qdd; tau its generalized force */
export interface GeneralizedCoordinate {
  /** position (a state) */
  readonly q: Variable;
  /** speed (a state, der(q) = qd) */
  readonly qd: Variable;
  /** acceleration (der(qd) = qdd) */
  readonly qdd: Variable;
  /** generalized force */
  readonly tau: Variable;
  /**
   * A free or ball joint's rotation about its frame_b axis `axis` (0..2):
   * the orientation is the unit quaternion Q (four states) and qd the
   * angular velocity's component, so the coordinate has no position of its
   * own (q is then Q[axis + 2], the quaternion's vector part, as a name);
   * derivatives by it are along Q (x) exp(delta e_axis / 2)
   */
  readonly quaternion?: {
    /** the quaternion's four states Q[1..4] */
    readonly Q: readonly Variable[];
    /** the frame_b axis (0..2) this coordinate turns about */
    readonly axis: number;
  };
}
