// MJCF text read into elements in file order, each with its tag, attributes,
// children, and the file and line it is on: MJCF's meaning depends on order
// (joints apply in order, bodies number qpos depth first), and every message
// names the line. <include file> is replaced by the included file's
// top-level children, read through options.readFile, with its own file name
// and lines; a missing file or an include loop is a ModelError naming the
// <include> and its line.
import { XMLParser } from 'fast-xml-parser';
import { ModelError } from '../errors.ts';
import { XML_LIMITS, parseXml } from './urdf-xml.ts';

export interface XmlNode {
  tag: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  /** the file the element is in (the main file, or an included one) and its line, 1-based */
  source: string;
  line: number;
}

/** reads an included file (or a mesh file) by the name the MJCF gives; undefined: there is no such file. Bytes are read as UTF-8 text where text is meant */
export type ReadFile = (path: string) => string | Uint8Array | undefined;

/** where an element is, for messages: `robot.xml:12: <joint name="knee">` */
export function where(e: XmlNode): string {
  const name = e.attrs.name;
  return `${e.source}:${e.line}: <${e.tag}${name === undefined ? '' : ` name="${name}"`}>`;
}

export function fail(e: XmlNode, what: string, hint: string): never {
  throw new ModelError(`MJCF ${where(e)}: ${what}`, { hint });
}

/** how deep includes may nest: a loop is found before, this bounds a long chain of distinct files */
const MAX_INCLUDE_DEPTH = 20;

// (MJCF text, file name, include reader) => the root element, includes expanded
export function readMjcfXml(text: string, source: string, readFile?: ReadFile): XmlNode {
  const roots = parseFile(text, source);
  if (roots.length !== 1 || roots[0].tag !== 'mujoco') {
    throw new ModelError(`MJCF ${source}: the file's root element is ${roots.map((r) => `<${r.tag}>`).join(', ') || 'missing'}, not one <mujoco>`, {
      hint: 'an MJCF file holds one <mujoco model="..."> element',
    });
  }
  expandIncludes(roots[0], [source], readFile);
  return roots[0];
}

function parseFile(text: string, source: string): XmlNode[] {
  tooDeep(text, source);
  const doc = parseXml(text, source, 'MJCF', { preserveOrder: true, captureMetaData: true, attributeNamePrefix: '' }) as RawNode[];
  // line starts, to turn the parser's character offsets into lines
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const lineOf = (offset: number) => {
    let lo = 0,
      hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  return convert(doc, source, lineOf);
}

/**
 * The first element nested deeper than the XML reader reads, named with its
 * line, before the reader refuses the file without saying where: a scan of
 * the tags (comments, CDATA and declarations skipped), linear in the text.
 */
function tooDeep(text: string, source: string): void {
  const { maxDepth } = XML_LIMITS;
  const tags = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<[?!][^>]*>|<(\/?)([^\s/>]+)[^>]*?(\/?)>/g;
  let depth = 0;
  for (let m = tags.exec(text); m; m = tags.exec(text)) {
    if (m[2] === undefined) continue;
    if (m[1]) depth--;
    else if (!m[3] && ++depth > maxDepth) {
      const line = text.slice(0, m.index).split('\n').length;
      throw new ModelError(
        `MJCF ${source}:${line}: <${m[2]}${/name="([^"]*)"/.exec(m[0]) ? ` name="${/name="([^"]*)"/.exec(m[0])![1]}"` : ''}>: nested more than ${maxDepth} elements deep`,
        {
          hint: `Kron reads MJCF nested at most ${maxDepth} elements deep (a chain of about ${maxDepth - 3} bodies)`,
        },
      );
    }
  }
}

type RawNode = Record<string, unknown>;
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

/** the parser's ordered output as XmlNodes; text and comments are dropped (MJCF keeps everything in attributes). A loop over a stack: depth is bounded by the parser, but no recursion is needed */
function convert(raw: RawNode[], source: string, lineOf: (offset: number) => number): XmlNode[] {
  const top: XmlNode[] = [];
  const stack: [RawNode[], XmlNode[]][] = [[raw, top]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [list, out] = item;
    for (const r of list) {
      const tag = Object.keys(r).find((k) => k !== ':@');
      if (tag === undefined || tag.startsWith('#') || tag.startsWith('?')) continue;
      const meta = (r as Record<symbol, { startIndex?: number } | undefined>)[META];
      const node: XmlNode = {
        tag,
        attrs: { ...((r[':@'] as Record<string, string> | undefined) ?? {}) },
        children: [],
        source,
        line: lineOf(meta?.startIndex ?? 0),
      };
      out.push(node);
      const kids = r[tag];
      if (Array.isArray(kids) && kids.length) stack.push([kids as RawNode[], node.children]);
    }
  }
  return top;
}

/** replaces every <include file> below e by the included file's top-level children, depth first */
function expandIncludes(e: XmlNode, chain: string[], readFile: ReadFile | undefined): void {
  for (let i = 0; i < e.children.length; i++) {
    const c = e.children[i];
    if (c.tag !== 'include') {
      expandIncludes(c, chain, readFile);
      continue;
    }
    const file = c.attrs.file;
    if (!file) fail(c, 'has no file attribute', 'give <include file="other.xml"/>');
    if (chain.includes(file))
      fail(
        c,
        `includes "${file}", which is already being included: ${[...chain, file].join(' -> ')}`,
        'an include loop never ends: remove one of the <include>s',
      );
    if (chain.length > MAX_INCLUDE_DEPTH) fail(c, `includes nest more than ${MAX_INCLUDE_DEPTH} files deep`, 'flatten the includes');
    const read = readFile?.(file);
    const text = read instanceof Uint8Array ? new TextDecoder().decode(read) : read;
    if (text === undefined) {
      fail(
        c,
        `the included file "${file}" is not found`,
        readFile ? 'the path is relative to the main MJCF file: check the name' : 'pass options.readFile to parseMjcf to read included files',
      );
    }
    const roots = parseFile(text, file);
    if (roots.length !== 1 || roots[0].tag !== 'mujoco')
      fail(c, `"${file}" does not hold one <mujoco> element`, 'an included file is an MJCF file: <mujoco> ... </mujoco>');
    expandIncludes(roots[0], [...chain, file], readFile);
    const inserted = roots[0].children;
    e.children.splice(i, 1, ...inserted);
    i += inserted.length - 1;
  }
}
