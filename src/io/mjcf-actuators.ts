// MJCF <actuator> read into plain data, as MuJoCo's mj_fwdActuation uses it:
//   u     = clamp(ctrl, ctrlrange)              when ctrllimited
//   L, V  = gear L_t, gear V_t                  (L_t: the joint's q or the fixed tendon's length)
//   force = clamp(gain u + bias, forcerange)    when forcelimited
//   gain  = gainprm[1] + gainprm[2] L + gainprm[3] V      (gaintype fixed: gainprm[1] alone)
//   bias  = biasprm[1] + biasprm[2] L + biasprm[3] V      (biastype none: 0)
// and the generalized force gear * force on the joint (gear coef_i on each
// joint of a tendon). The shortcuts are <general> with fixed parameters:
//   motor     gain 1, no bias
//   position  gain kp, bias (0, -kp, -kv); with dampratio, kv = dampratio
//             2 sqrt(kp m), m the inertia at qpos0 the actuator sees (mjcf-m0.ts)
//   velocity  gain kv, bias (0, 0, -kv)
//   damper    gain (0, 0, -kv) (affine), no bias
// Defaults: an actuator element takes its class's attributes of its own tag,
// and the transmission and range attributes (gear, ctrlrange, forcerange,
// ctrllimited, forcelimited) of any actuator tag of the class, since MuJoCo
// keeps one actuator default per class. Activation dynamics: dyntype
// integrator, filter and filterexact (dynprm[0] the time constant; the two
// filters are the same ODE, MuJoCo integrates one exactly) and a position
// servo's timeconst (filterexact), with actlimited/actrange, make the force
// follow a state act (library/multibody/actuator.ts). What is not read, each
// a warning naming it and skipped: dyntype muscle and user, actearly,
// the muscle, cylinder, adhesion and intvelocity shortcuts, gain or bias
// types other than fixed/affine/none, and transmissions other than a joint
// or a tendon (site, body, slider-crank).
import { type XmlNode, fail, where } from './mjcf-xml.ts';
import type { Reader } from './mjcf-parse.ts';

export interface MjcfActuator {
  /** the MJCF name; undefined when the file gives none */
  name?: string;
  /** MuJoCo's actuator number (every actuator element counts, modelled or not): its place in ctrl */
  index: number;
  /** the element: motor, position, velocity, damper or general */
  kind: string;
  /** the transmission: a joint's or a tendon's MJCF name */
  joint?: string;
  tendon?: string;
  /** gear[0]: the transmission's scale */
  gear: number;
  /** gain and bias coefficients of (1, L, V) */
  gain: [number, number, number];
  bias: [number, number, number];
  /** a position servo's damping ratio: bias[2] = -kv follows from the inertia at qpos0 (mjcf-m0.ts, mjcf-drives.ts) */
  dampratio?: number;
  ctrlrange?: [number, number];
  forcerange?: [number, number];
  /** activation dynamics: the force follows the state act (dyntype integrator, filter or filterexact; a position servo's timeconst) */
  dyn?: { type: 'integrator' | 'filter'; tau: number; actrange?: [number, number] };
  at: string;
}

const SHORTCUTS = new Set(['general', 'motor', 'position', 'velocity', 'damper']);
const NOT_READ = new Set(['intvelocity', 'cylinder', 'muscle', 'adhesion', 'plugin']);
/** the attributes one actuator default of a class holds whatever tag set it */
const SHARED = ['gear', 'ctrlrange', 'forcerange', 'ctrllimited', 'forcelimited', 'group'];
const TRANSMISSIONS = ['joint', 'jointinparent', 'tendon', 'site', 'body', 'cranksite', 'slidersite'];

/** actuator elements read so far, by reader: a file may have several <actuator> sections */
const counted = new WeakMap<Reader, number>();

// (reader, <actuator> element) => the actuators Kron models; warnings for the rest
export function readActuators(r: Reader, section: XmlNode): MjcfActuator[] {
  const out: MjcfActuator[] = [];
  for (const e of section.children) {
    const index = counted.get(r) ?? 0;
    if (SHORTCUTS.has(e.tag) || NOT_READ.has(e.tag)) counted.set(r, index + 1);
    if (NOT_READ.has(e.tag)) {
      r.warnings.push(`${where(e)}: ${e.tag} actuators are not modelled (left out)`);
      continue;
    }
    if (!SHORTCUTS.has(e.tag)) {
      r.warnings.push(`${where(e)}: not read`);
      continue;
    }
    const a = actuatorAttrs(r, e);
    const transmission = TRANSMISSIONS.filter((t) => a[t] !== undefined);
    if (transmission.length !== 1)
      fail(e, transmission.length ? `gives both ${transmission[0]} and ${transmission[1]}` : 'has no transmission', 'give one of joint="..." or tendon="..."');
    const t = transmission[0];
    if (t !== 'joint' && t !== 'jointinparent' && t !== 'tendon') {
      r.warnings.push(`${where(e)}: its ${t} transmission is not modelled (left out)`);
      continue;
    }
    const law = gainBias(r, e, a);
    if (typeof law === 'string') {
      r.warnings.push(`${where(e)}: ${law} is not modelled (left out)`);
      continue;
    }
    const dyn = dynamics(r, e, a);
    if (typeof dyn === 'string') {
      r.warnings.push(`${where(e)}: ${dyn} is not modelled (left out)`);
      continue;
    }
    out.push({
      ...(a.name !== undefined && { name: a.name }),
      index,
      kind: e.tag,
      ...(t === 'tendon' ? { tendon: a.tendon } : { joint: a[t] }),
      gear: r.numbers(e, a, 'gear', 6, [1, 0, 0, 0, 0, 0], 1)[0],
      ...law,
      ...limitedRange(r, e, a, 'ctrl'),
      ...limitedRange(r, e, a, 'force'),
      ...(dyn && { dyn }),
      at: where(e),
    });
  }
  return out;
}

/** the class's shared actuator attributes, under the class's attributes of the element's tag, under its own */
function actuatorAttrs(r: Reader, e: XmlNode): Record<string, string> {
  const own = r.attrs(e, 'main');
  const cls = r.classes.get(e.attrs.class ?? 'main')!;
  const shared: Record<string, string> = {};
  for (const tag of [...SHORTCUTS, ...NOT_READ]) {
    const d = cls.get(tag) ?? {};
    for (const k of SHARED) if (d[k] !== undefined) shared[k] = d[k];
  }
  return { ...shared, ...own };
}

/** the gain and bias coefficients of the element, or what is not modelled */
function gainBias(r: Reader, e: XmlNode, a: Record<string, string>): Pick<MjcfActuator, 'gain' | 'bias' | 'dampratio'> | string {
  const n = (k: string, fallback: number) => r.number(e, a, k, fallback);
  const nonNegative = (k: string, fallback: number) => {
    const v = n(k, fallback);
    if (v < 0) fail(e, `${k} ${v} is negative`, `give a ${k} of 0 or more`);
    return v;
  };
  switch (e.tag) {
    case 'motor':
      return { gain: [1, 0, 0], bias: [0, 0, 0] };
    case 'position': {
      const kp = nonNegative('kp', 1);
      if (a.dampratio === undefined) return { gain: [kp, 0, 0], bias: [0, -kp, -nonNegative('kv', 0)] };
      if (a.kv !== undefined) fail(e, 'gives both kv and dampratio', 'give one of them (MuJoCo refuses both)');
      return { gain: [kp, 0, 0], bias: [0, -kp, 0], dampratio: nonNegative('dampratio', 0) };
    }
    case 'velocity': {
      const kv = nonNegative('kv', 1);
      return { gain: [kv, 0, 0], bias: [0, 0, -kv] };
    }
    case 'damper':
      return { gain: [0, 0, -nonNegative('kv', 1)], bias: [0, 0, 0] };
    default: {
      const gaintype = a.gaintype ?? 'fixed',
        biastype = a.biastype ?? 'none';
      if (gaintype !== 'fixed' && gaintype !== 'affine') return `gaintype ${gaintype}`;
      if (biastype !== 'none' && biastype !== 'affine') return `biastype ${biastype}`;
      const g = r.numbers(e, a, 'gainprm', 10, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0], 1);
      const b = r.numbers(e, a, 'biasprm', 10, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 1);
      return {
        gain: gaintype === 'fixed' ? [g[0], 0, 0] : [g[0], g[1], g[2]],
        bias: biastype === 'none' ? [0, 0, 0] : [b[0], b[1], b[2]],
      };
    }
  }
}

/** the activation dynamics of a <general> (dyntype, dynprm) or a <position> (timeconst), with actrange; undefined: none; a string: what is not modelled */
function dynamics(r: Reader, e: XmlNode, a: Record<string, string>): MjcfActuator['dyn'] | string | undefined {
  const timeconst = e.tag === 'position' ? r.number(e, a, 'timeconst', 0) : 0;
  if (timeconst < 0) fail(e, `timeconst ${timeconst} is negative`, 'give a time constant in s, 0 (none) or more');
  const dyntype = e.tag === 'general' ? (a.dyntype ?? 'none') : timeconst > 0 ? 'filterexact' : 'none';
  if (dyntype === 'none') return undefined;
  if (!['integrator', 'filter', 'filterexact'].includes(dyntype)) return `dyntype ${dyntype} (activation dynamics)`;
  if (a.actearly === 'true') return "actearly (the force from the next step's activation)";
  const tau = e.tag === 'position' ? timeconst : r.numbers(e, a, 'dynprm', 10, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0], 1)[0];
  const range = limitedRange(r, e, a, 'act').actrange;
  return { type: dyntype === 'integrator' ? 'integrator' : 'filter', tau, ...(range && { actrange: range }) };
}

/** ctrlrange, forcerange (an actuator's) or actuatorfrcrange (a joint's) when limited: limited="true", or "auto" with a range and autolimits (MuJoCo's rule) */
export function limitedRange(
  r: Reader,
  e: XmlNode,
  a: Record<string, string>,
  what: 'ctrl' | 'force' | 'actuatorfrc' | 'act',
): Record<string, [number, number]> {
  const key = `${what}range`,
    flag = `${what}limited`;
  const given = a[key] === undefined ? undefined : r.numbers(e, a, key, 2);
  const limited = a[flag] ?? 'auto';
  if (!['true', 'false', 'auto'].includes(limited)) fail(e, `${flag}="${limited}" is not true, false or auto`, `give ${flag}="true"`);
  if (limited === 'auto' && given && !r.compiler.autolimits)
    fail(e, `has a ${key} but not ${flag}`, `set <compiler autolimits="true"/>, or give ${flag}="true" or "false"`);
  if (limited === 'false' || (limited === 'auto' && !given)) return {};
  if (!given) fail(e, `is ${flag} but has no ${key}`, `give ${key}="lower upper"`);
  if (!(given[0] < given[1])) fail(e, `${key} lower ${given[0]} is not below upper ${given[1]}`, `give ${key}="lower upper"`);
  return { [key]: [given[0], given[1]] };
}
