// MJCF <tendon><fixed> read into plain data: a fixed tendon's length is a
// linear combination of joint coordinates, L = sum coef_i q_i (hinge and
// slide joints, MuJoCo's rule), with a spring-damper along it,
//   F = -stiffness (L - springlength) - damping dL/dt
// (springlength -1, MuJoCo's default, rests at L = 0: MuJoCo 3.14's compiler
// gives a fixed tendon tendon_lengthspring 0 then, whatever the joints' ref),
// and its range (when limited) as limits on L. Spatial tendons
// (<spatial>, routed through sites and wrapped around geoms) are a warning
// naming them, as are a tendon's frictionloss, armature and a springlength
// deadband (two different values).
import { type XmlNode, fail, where } from './mjcf-xml.ts';
import type { Reader } from './mjcf-parse.ts';

export interface MjcfTendon {
  /** the MJCF name; undefined when the file gives none */
  name?: string;
  /** the joints by MJCF name, with their coefficients */
  joints: { joint: string; coef: number; at: string }[];
  stiffness: number;
  springlength: number;
  damping: number;
  /** [lower, upper] of the length when the tendon is limited */
  range?: [number, number];
  at: string;
}

// (reader, <tendon> element) => its fixed tendons; warnings for the rest
export function readTendons(r: Reader, section: XmlNode): MjcfTendon[] {
  const out: MjcfTendon[] = [];
  for (const e of section.children) {
    if (e.tag === 'spatial') {
      r.warnings.push(`${where(e)}: spatial tendons are not modelled (left out)`);
      continue;
    }
    if (e.tag !== 'fixed') {
      r.warnings.push(`${where(e)}: not read`);
      continue;
    }
    // one tendon default per class, whichever tag set it
    const cls = r.classes.get(e.attrs.class ?? 'main');
    const a = { ...(cls?.get('tendon') ?? {}), ...r.attrs(e, 'main') };
    const nonNegative = (k: string) => {
      const v = r.number(e, a, k, 0);
      if (v < 0) fail(e, `${k} ${v} is negative`, `give a ${k} of 0 or more`);
      return v;
    };
    for (const k of ['frictionloss', 'armature']) if (nonNegative(k) !== 0) r.warnings.push(`${where(e)}: ${k} is not modelled`);
    const [s0, s1] = r.numbers(e, a, 'springlength', 2, [-1, NaN], 1);
    if (!Number.isNaN(s1) && s1 !== s0) r.warnings.push(`${where(e)}: the springlength deadband [${s0}, ${s1}] is not modelled: the spring rests at ${s0}`);
    const joints = e.children
      .filter((c) => c.tag === 'joint')
      .map((c) => {
        if (c.attrs.joint === undefined) fail(c, 'names no joint', 'give <joint joint="name" coef="1"/>');
        return { joint: c.attrs.joint, coef: r.number(c, c.attrs, 'coef', 1), at: where(c) };
      });
    if (!joints.length) fail(e, 'has no joints', 'give its <joint joint="name" coef="1"/> elements');
    const range = a.range === undefined ? undefined : r.numbers(e, a, 'range', 2);
    const limited = a.limited ?? 'auto';
    if (!['true', 'false', 'auto'].includes(limited)) fail(e, `limited="${limited}" is not true, false or auto`, 'give limited="true"');
    const isLimited = limited === 'true' || (limited === 'auto' && range !== undefined && r.compiler.autolimits);
    if (isLimited && !range) fail(e, 'is limited but has no range', 'give range="lower upper"');
    if (isLimited && range && range[0] > range[1]) fail(e, `range lower ${range[0]} is above upper ${range[1]}`, 'give range="lower upper"');
    out.push({
      ...(a.name !== undefined && { name: a.name }),
      joints,
      stiffness: nonNegative('stiffness'),
      springlength: s0 === -1 ? 0 : s0,
      damping: nonNegative('damping'),
      ...(isLimited && range && { range: [range[0], range[1]] as [number, number] }),
      at: where(e),
    });
  }
  return out;
}
