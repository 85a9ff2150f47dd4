// Typed errors users see. Each names what is at fault (component, equation,
// variable) and carries a hint to fix it; the CLI prints message + hint and
// exits 1 for model errors, 2 for usage errors.

/** what a typed error names: the component, equations and variables at fault, and a hint */
export interface ErrorDetails {
  /** hierarchical component name, e.g. "s1" or "robot.j2" */
  component?: string;
  /** equations involved, printed readably */
  equations?: string[];
  /** variables involved, by hierarchical name */
  variables?: string[];
  /** how to fix it */
  hint?: string;
}

/**
 * Every error Kron throws on purpose: a message, and details that name the
 * component, variables and equations at fault and a hint to fix it. The
 * subclasses say whose fault it is (the model, its structure, tearing, the
 * simulation, the user's call, an output file).
 */
export class KronError extends Error {
  /** the class's name, e.g. 'ModelError' (the CLI prints it before the message) */
  override name = 'KronError';
  /** what is at fault and how to fix it */
  readonly details: ErrorDetails;
  constructor(message: string, details: ErrorDetails = {}) {
    super(message);
    this.details = details;
  }
  /** message, involved names and hint, as the CLI prints it */
  describe(): string {
    const d = this.details;
    const lines = [`${this.name}: ${this.message}`];
    if (d.component) lines.push(`  component: ${d.component}`);
    // a large singular model can name hundreds: the first ones locate it, details has them all
    if (d.variables?.length) lines.push(`  variables: ${more(d.variables, 30).join(', ')}`);
    if (d.equations?.length)
      lines.push(
        '  equations:',
        ...more(
          d.equations.map((e) => (e.length > 300 ? `${e.slice(0, 300)} ...` : e)),
          12,
        ).map((e) => `    ${e}`),
      );
    if (d.hint) lines.push(`  hint: ${d.hint}`);
    return lines.join('\n');
  }
}

/** the first n items, and how many more there are */
function more(items: readonly string[], n: number): string[] {
  return items.length > n ? [...items.slice(0, n), `... and ${items.length - n} more`] : [...items];
}

/** the model itself is wrong: bad component parameters, bad connections */
export class ModelError extends KronError {
  /** the class's name, as the CLI prints it */
  override name = 'ModelError';
}

/** equations and unknowns do not match structurally */
export class StructuralError extends KronError {
  /** the class's name, as the CLI prints it */
  override name = 'StructuralError';
}

/** tearing hints are incomplete or inconsistent */
export class TearingError extends KronError {
  /** the class's name, as the CLI prints it */
  override name = 'TearingError';
}

/** a failure at run time: Newton did not converge, a value became NaN */
export class SimulationError extends KronError {
  /** the class's name, as the CLI prints it */
  override name = 'SimulationError';
}

/** the command line or API was called wrongly */
export class UsageError extends KronError {
  /** the class's name, as the CLI prints it */
  override name = 'UsageError';
}

/** an output could not be written (a full disk, a quota, no permission): names the file; the previous file is kept */
export class OutputError extends KronError {
  /** the class's name, as the CLI prints it */
  override name = 'OutputError';
}

/** a queued sweep's Redis is gone, or a message in it was refused (kron sweep --queue, kron worker) */
export class QueueError extends KronError {
  /** the class's name, as the CLI prints it */
  override name = 'QueueError';
}
