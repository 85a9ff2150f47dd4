// The parameters of a live model module (its `export const parameters`), one
// number field each: compile & run builds the model with them. Only the
// values that differ from the module's defaults are passed, so a run with
// the defaults is the module's default model.
import { mechanismModule } from './live.ts';

export class ParamsPanel {
  private name = '';
  private defaults: Record<string, number> = {};
  private fields = new Map<string, HTMLInputElement>();

  constructor(
    private readonly list: HTMLElement,
    private readonly noteEl: HTMLElement,
  ) {}

  /** the fields of a model module's parameters; values kept when the same module is shown again */
  show(name: string): void {
    if (name === this.name && this.fields.size) return;
    this.name = name;
    const module = name ? mechanismModule(name) : undefined;
    this.defaults = numbers(module?.parameters ?? {});
    this.fields.clear();
    this.list.replaceChildren();
    const names = Object.keys(this.defaults);
    this.noteEl.textContent = !module
      ? `${name || 'the loaded run'} is not a model module of this page: choose one in live to set its parameters`
      : names.length
        ? `${name}'s parameters: compile & run builds the model with these values`
        : `${name} exports no parameters (export const parameters = { ... } in its module)`;
    for (const p of names) {
      const field = Object.assign(document.createElement('input'), { type: 'number', step: 'any', value: String(this.defaults[p]) });
      field.dataset.parameter = p;
      const label = document.createElement('label');
      label.append(Object.assign(document.createElement('span'), { textContent: p, title: p }), field);
      this.list.append(label);
      this.fields.set(p, field);
    }
  }

  /** the values that differ from the module's defaults (an empty or invalid field keeps its default) */
  changed(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [p, field] of this.fields) {
      const v = field.valueAsNumber;
      if (Number.isFinite(v) && v !== this.defaults[p]) out[p] = v;
    }
    return out;
  }

  /** set a field (the console and tests) */
  set(name: string, value: number): void {
    const field = this.fields.get(name);
    if (!field) throw new Error(`${this.name} has no parameter ${name}`);
    field.value = String(value);
  }
}

/** a module's numeric parameters only (a module may export other things under that name) */
function numbers(parameters: Record<string, unknown>): Record<string, number> {
  return Object.fromEntries(Object.entries(parameters).filter(([, v]) => typeof v === 'number')) as Record<string, number>;
}
