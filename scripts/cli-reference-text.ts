// The CLI reference, docs/reference/cli.md, from the help texts themselves:
// `kron --help` and each command's `kron <command> --help`, which are the
// source of truth for commands and flags (src/cli/main.ts). Written by
// scripts/cli-reference.ts (npm run docs); test/docs/cli-reference.test.ts
// checks the file is what this gives today, so the page cannot drift.
import { COMMANDS, usage } from '../src/cli/main.ts';

/**
 * A help text as the page shows it: the same on every machine. The thread
 * counts of sweep and worker say "N here" of the machine that prints them.
 */
const portable = (help: string) => help.replace(/, \d+ here\)/g, ')').trimEnd();

// () => the Markdown of docs/reference/cli.md
export async function cliReference(): Promise<string> {
  const names = Object.keys(COMMANDS);
  const sections = await Promise.all(
    names.map(async (name) => {
      const { help } = await COMMANDS[name].load();
      return `## kron ${name}\n\n${COMMANDS[name].summary[0].toUpperCase()}${COMMANDS[name].summary.slice(1)}.\n\n\`\`\`text\n${portable(help)}\n\`\`\`\n`;
    }),
  );
  return `# CLI reference

Every command of \`kron\` with its options and examples, as \`kron <command>
--help\` prints them. Generated from the help texts by \`npm run docs\`
(\`scripts/cli-reference.ts\`); \`test/docs/cli-reference.test.ts\` fails when
this page and the help differ. Paths such as \`mechanisms/pendulum.ts\` are
the repository's; in an installed package the help names them from your
folder (\`node_modules/kron/mechanisms/pendulum.ts\`).

${names.map((n) => `- [kron ${n}](#kron-${n}): ${COMMANDS[n].summary}`).join('\n')}

## kron

\`\`\`text
${portable(usage())}
\`\`\`

${sections.join('\n')}`;
}
