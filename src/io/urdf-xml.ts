// XML text read into an element tree within limits, for the URDF reader
// (every element an array, attributes prefixed with @_) and the MJCF reader
// (elements in file order, with their offsets: mjcf-xml.ts). What the XML reader
// refuses (not well-formed, too large, too deep, DOCTYPE entities) is a
// ModelError naming the file, never the parser's own exception.
import { type EntityDecoderOptions, type X2jOptions, XMLParser, XMLValidator } from 'fast-xml-parser';
import { ModelError } from '../errors.ts';

export type Element = Record<string, unknown>;

/**
 * What the XML reader accepts. Size: fast-xml-parser takes about a second a
 * megabyte (its validator, on long attribute values); a large URDF with
 * every link spelled out is ~1 MB. Nesting: URDF nests ~5 deep (robot, link,
 * visual, geometry, box), Gazebo extensions a few more; 100 is also the
 * parser's own default. Entities: the five predefined ones and character
 * references; a DOCTYPE that declares its own is refused (no expansion, so
 * no billion laughs), as are external entities (the parser refuses them).
 */
export const XML_LIMITS = { maxChars: 10_000_000, maxDepth: 100 } as const;

// (XML text, file name) => the document, every element as an array; or a ModelError
export function readXml(text: string, source: string): Element {
  return parseXml(text, source, 'URDF', {
    attributeNamePrefix: '@_',
    isArray: (_t, _p, _l, isAttribute) => !isAttribute,
  }) as Element;
}

/**
 * (XML text, file name, format named in messages, the parser's layout
 * options) => what the parser returns, within XML_LIMITS; or a ModelError
 * naming the file. The MJCF reader asks for elements in file order with
 * their offsets (preserveOrder, captureMetaData).
 */
export function parseXml(text: string, source: string, format: string, layout: Partial<X2jOptions>): unknown {
  const { maxChars, maxDepth } = XML_LIMITS;
  if (text.length > maxChars) {
    throw new ModelError(`${format} ${source}: the file has ${text.length} characters, more than the ${maxChars} Kron reads`, {
      hint: `a ${format} file keeps meshes in separate files; check that this is the robot description`,
    });
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new ModelError(`${format} ${source}: not well-formed XML at line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg}`, {
      hint: 'check the tags around that line',
    });
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    parseAttributeValue: false,
    ...layout,
    maxNestedTags: maxDepth,
    entityDecoder: predefinedEntities(source, format),
  });
  try {
    return parser.parse(text);
  } catch (e) {
    // the parser refuses input with a plain Error; a TypeError and the like would be a bug, and surfaces
    if (!(e instanceof Error) || e.constructor !== Error) throw e;
    throw new ModelError(`${format} ${source}: the XML reader refused it: ${e.message}`, {
      hint: `Kron reads XML nested at most ${maxDepth} elements deep, without DOCTYPE entities`,
    });
  }
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** decodes the five predefined XML entities and character references; a DOCTYPE that declares entities is a ModelError */
function predefinedEntities(source: string, format: string): EntityDecoderOptions {
  const character = (code: number) => (code <= 0x10ffff ? String.fromCodePoint(code) : undefined);
  return {
    addInputEntities: (entities) => {
      const names = Object.keys(entities);
      if (names.length === 0) return;
      throw new ModelError(
        `${format} ${source}: the DOCTYPE declares entities (${names
          .slice(0, 5)
          .map((n) => `&${n};`)
          .join(', ')}${names.length > 5 ? ', ...' : ''}), which Kron does not expand`,
        {
          hint: 'write the values in place (xacro can generate them) and remove the DOCTYPE',
        },
      );
    },
    decode: (text) =>
      text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
        if (name[0] !== '#') return PREDEFINED[name] ?? whole;
        return character(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)) ?? whole;
      }),
    setExternalEntities: () => {},
    reset: () => {},
    setXmlVersion: () => {},
  };
}
