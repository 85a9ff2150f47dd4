// The variable browser: the recorded signals as a list of checkboxes, and
// every variable of the model (when the page has it, see run-signals.ts)
// grouped by component — the name before its first '.' — with a search
// box. Groups fill in when opened or when the search matches in them, so a
// model of thousands of variables costs nothing until asked.
const MAX_SHOWN = 300;

/** (names) => groups by component, in first-seen order (der(j1.q) with j1); names without '.' under '(model)' */
export function groupByComponent(names: readonly string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const n of names) {
    const bare = n.replace(/^der\(/, '');
    const dot = bare.indexOf('.');
    const key = dot > 0 ? bare.slice(0, dot) : '(model)';
    const group = groups.get(key);
    if (group) group.push(n);
    else groups.set(key, [n]);
  }
  return groups;
}

/** every space-separated term of the query occurs in the name (case-insensitive) */
function matches(name: string, terms: readonly string[]): boolean {
  const lower = name.toLowerCase();
  return terms.every((t) => lower.includes(t));
}

export class VariableBrowser {
  private chosen = new Set<string>();
  private groups = new Map<string, string[]>();
  private unit: (name: string) => string = () => '';

  constructor(
    private readonly recordedList: HTMLElement,
    private readonly groupsBox: HTMLElement,
    private readonly search: HTMLInputElement,
    private readonly onToggle: (name: string, on: boolean) => void,
  ) {
    search.addEventListener('input', () => this.filter());
  }

  private checkbox(name: string): HTMLLabelElement {
    const label = document.createElement('label');
    const box = Object.assign(document.createElement('input'), { type: 'checkbox', checked: this.chosen.has(name), value: name });
    box.addEventListener('change', () => this.onToggle(name, box.checked));
    const unit = this.unit(name);
    label.append(box, ` ${name}`);
    if (unit) label.append(Object.assign(document.createElement('span'), { className: 'unit', textContent: ` ${unit}` }));
    label.title = name;
    return label;
  }

  /** a new run: its recorded signals; the model's variables come later (showAll) */
  show(recorded: readonly string[], chosen: readonly string[], unit: (name: string) => string): void {
    this.unit = unit;
    this.chosen = new Set(chosen);
    this.recordedList.replaceChildren(...recorded.map((n) => this.checkbox(n)));
    this.groups = new Map();
    this.groupsBox.replaceChildren();
  }

  /** every variable of the model, grouped by component */
  showAll(names: readonly string[]): void {
    this.groups = groupByComponent(names);
    this.groupsBox.replaceChildren(
      ...[...this.groups].map(([key, members]) => {
        const group = document.createElement('details');
        group.dataset.component = key;
        const summary = Object.assign(document.createElement('summary'), { textContent: `${key} (${members.length})` });
        const list = document.createElement('div');
        list.className = 'variables';
        group.append(summary, list);
        group.addEventListener('toggle', () => group.open && !list.childElementCount && this.fill(list, members));
        return group;
      }),
    );
    this.filter();
  }

  private fill(list: HTMLElement, names: readonly string[]): void {
    list.replaceChildren(...names.slice(0, MAX_SHOWN).map((n) => this.checkbox(n)));
    if (names.length > MAX_SHOWN)
      list.append(Object.assign(document.createElement('p'), { className: 'muted', textContent: `${names.length - MAX_SHOWN} more: search narrows the list` }));
  }

  /** the search: groups with matches open, showing only those; empty: all closed and whole */
  private filter(): void {
    const terms = this.search.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    for (const group of this.groupsBox.querySelectorAll<HTMLDetailsElement>('details')) {
      const all = this.groups.get(group.dataset.component!) ?? [];
      const shown = terms.length ? all.filter((n) => matches(n, terms)) : all;
      const list = group.querySelector<HTMLElement>('.variables')!;
      group.hidden = !shown.length;
      list.replaceChildren();
      if (terms.length && shown.length) this.fill(list, shown);
      group.open = terms.length > 0 && shown.length > 0;
    }
  }

  /** the plotted signals changed: the checkboxes follow */
  setChosen(chosen: readonly string[]): void {
    this.chosen = new Set(chosen);
    for (const box of [...this.recordedList.querySelectorAll('input'), ...this.groupsBox.querySelectorAll('input')]) box.checked = this.chosen.has(box.value);
  }
}
