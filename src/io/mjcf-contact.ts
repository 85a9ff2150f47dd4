// An MJCF file's contact selection beyond the geoms' bitmasks (MuJoCo XML
// reference, <contact> and <option><flag>): the parent filter's switch
// (<flag filterparent="disable">), body pairs never to collide
// (<contact><exclude body1 body2>) and explicit geom pairs
// (<contact><pair geom1 geom2>) with their own condim, friction, solref and
// solimp. A pair's attribute not given (by it or its class) is MuJoCo's mix
// of its two geoms' (user_objects.cc, mjCPair::Compile): undefined here,
// mixed by mjcf-collision.ts. Names are checked against the file's geoms and
// bodies by mjcfMechanism, which knows them all.
import type { Reader } from './mjcf-parse.ts';
import { type XmlNode, fail, where } from './mjcf-xml.ts';

/** <contact><exclude>: the two bodies' geoms never collide */
export interface MjcfExclude {
  body1: string;
  body2: string;
  /** where it is written, for messages */
  at: string;
}

/** <contact><pair>: the two geoms collide whatever the filters say; each parameter not given is the geoms' mix */
export interface MjcfPair {
  geom1: string;
  geom2: string;
  condim?: number;
  /** the sliding friction (the first of its five numbers) */
  friction?: number;
  solref?: [number, number];
  solimp?: number[];
  at: string;
}

export interface MjcfContact {
  /** MuJoCo's parent filter (on unless <option><flag filterparent="disable">) */
  filterParent: boolean;
  exclude: MjcfExclude[];
  pairs: MjcfPair[];
}

const CONDIMS = [1, 3, 4, 6];

// (reader, the <mujoco> element) => its contact selection
export function readContact(r: Reader, root: XmlNode): MjcfContact {
  const out: MjcfContact = { filterParent: true, exclude: [], pairs: [] };
  for (const f of root.children.filter((c) => c.tag === 'option').flatMap((o) => o.children)) {
    const v = f.tag === 'flag' ? f.attrs.filterparent : undefined;
    if (v === undefined) continue;
    if (v !== 'enable' && v !== 'disable')
      fail(f, `filterparent="${v}" is not enable or disable`, 'give filterparent="disable" to let parent and child bodies collide');
    out.filterParent = v === 'enable';
  }
  for (const e of root.children.filter((c) => c.tag === 'contact').flatMap((c) => c.children)) {
    if (e.tag === 'exclude') out.exclude.push({ body1: required(e, 'body1'), body2: required(e, 'body2'), at: where(e) });
    else if (e.tag === 'pair') out.pairs.push(readPair(r, e));
    else r.warnings.push(`${where(e)}: not read`);
  }
  return out;
}

function required(e: XmlNode, name: string): string {
  const v = e.attrs[name];
  if (v === undefined) fail(e, `attribute ${name} is missing`, `give ${name}="<name>"`);
  return v;
}

function readPair(r: Reader, e: XmlNode): MjcfPair {
  const a = r.attrs(e, 'main');
  const pair: MjcfPair = { geom1: required(e, 'geom1'), geom2: required(e, 'geom2'), at: where(e) };
  if (a.condim !== undefined) {
    pair.condim = r.number(e, a, 'condim', 3);
    if (!CONDIMS.includes(pair.condim))
      fail(e, `condim="${a.condim}" is not 1, 3, 4 or 6`, 'give condim="3" (normal and sliding friction) or "1" (frictionless)');
  }
  if (a.friction !== undefined) pair.friction = r.numbers(e, a, 'friction', 5, [1, 1, 0.005, 0.0001, 0.0001], 1)[0];
  if (a.solref !== undefined) {
    const s = r.numbers(e, a, 'solref', 2);
    // as a geom's: the negative form (direct stiffness and damping) is not read
    if (s.every((x) => x > 0)) pair.solref = [s[0], s[1]];
    else r.warnings.push(`${where(e)}: solref="${a.solref}" (direct stiffness and damping) is not read: the geoms' mix is used`);
  }
  if (a.solimp !== undefined) pair.solimp = r.numbers(e, a, 'solimp', 5, [0.9, 0.95, 0.001, 0.5, 2], 1);
  for (const k of ['margin', 'gap']) if (a[k] !== undefined && Number(a[k]) !== 0) r.warnings.push(`${where(e)}: ${k} is not modelled (contact acts at touch)`);
  return pair;
}
