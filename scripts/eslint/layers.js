// An ESLint rule that keeps the pipeline's layers: an import (or export ...
// from, or import()) whose relative path resolves into a folder that the
// importing file's folder must not use is an error naming why. Paths are
// resolved by arithmetic on the file's own path, so no resolver and no file
// on disk is needed, and nothing escapes the check unresolved. Options: the
// repository root and the zones [{ target, from, message }], folders
// relative to the root.
import { dirname, relative, resolve, sep } from 'node:path';

const inside = (path, folder) => path === folder || path.startsWith(folder + sep);

export const layers = {
  meta: {
    type: 'problem',
    docs: { description: 'imports between the folders of the pipeline go one way' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          zones: {
            type: 'array',
            items: { type: 'object', properties: { target: { type: 'string' }, from: { type: 'string' }, message: { type: 'string' } } },
          },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const { root, zones } = context.options[0];
    const file = context.filename;
    const applying = zones.filter((z) => inside(file, resolve(root, z.target)));
    if (!applying.length) return {};
    const check = (source) => {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = resolve(dirname(file), source.value);
      for (const z of applying) {
        if (!inside(target, resolve(root, z.from))) continue;
        context.report({ node: source, message: `${z.target} may not import ${z.from} (${relative(root, target)}): ${z.message}` });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
