// The view's show/hide toggles (frames, joint axes, contact forces, collision
// geometry): each a checkbox of the controls and a key, as in MuJoCo's
// viewer, kept in step — a key flips its checkbox, so the two never disagree.

/** one toggle: its checkbox, its key, and what turning it on or off does */
export interface Toggle {
  box: HTMLInputElement;
  key: string;
  set: (on: boolean) => void;
}

// (toggles) => each key's action; the checkboxes act on change
export function wireToggles(toggles: readonly Toggle[]): Record<string, () => void> {
  for (const t of toggles) t.box.addEventListener('change', () => t.set(t.box.checked));
  return Object.fromEntries(toggles.map((t) => [t.key, () => t.set((t.box.checked = !t.box.checked))]));
}
