// Whether a compile emits templates (codegen/templates.ts), and what
// report.templates says of it. The detection (model/templates.ts) says
// whether a template would pay; the code generator finds the repetition in
// the generated functions and says what it made.
import { type TemplateReport, templatesWouldPay } from './model/index.ts';
import type { TemplatesMade } from './codegen/generate.ts';
import type { CompileOptions } from './compile.ts';

/** true: generate with templates; else why the compile stays flat (a clause) */
export function templatesAsked(found: TemplateReport, options: CompileOptions): true | string | undefined {
  if (!templatesWouldPay(found)) return undefined; // found.reason says why
  if (options.templates === false) return 'templates: false asked for a flat compile';
  if (options.target === 'wasm') return 'the WebAssembly target does not run templates yet';
  if (options.share === false) return 'share: false asked for every function to be emitted flat';
  return true;
}

/**
 * report.templates for this compile: the detection's, with `used` and
 * `reason` saying what the code generator made (a copy: mode auto's two
 * forms share one detection)
 */
export function templatesReport(found: TemplateReport, asked: true | string | undefined, made: TemplatesMade | undefined): TemplateReport {
  if (asked === undefined) return { ...found, classes: [...found.classes] };
  if (asked !== true) return { ...found, classes: [...found.classes], used: false, reason: `${found.reason}: ${asked}: compiled flat` };
  const flat =
    made && made.flat.length ? `; left flat: ${made.flat.slice(0, 3).join('; ')}${made.flat.length > 3 ? `; ... (${made.flat.length} in all)` : ''}` : '';
  if (!made || made.functions === 0)
    return {
      ...found,
      classes: [...found.classes],
      used: false,
      reason: `${found.reason}, but no generated functions were alike up to slots and numbers: compiled flat${flat}`,
    };
  // pieces derived from a prototype instead of generated (codegen/template-derive.ts), and those that did not fit, lowered flat
  const derived = made.derived ? `; ${made.derived} pieces derived from a generated one` : '';
  const u = made.unmatched;
  const unmatched = u ? `; ${u.count} generated as they did not fit a prototype: ${u.examples.join('; ')}${u.count > u.examples.length ? '; ...' : ''}` : '';
  return {
    ...found,
    classes: [...found.classes],
    used: true,
    reason: `${found.reason}: compiled as ${made.functions} templates over ${made.instances} instances' functions, ${made.loops} loops${flat}${derived}${unmatched}`,
  };
}
