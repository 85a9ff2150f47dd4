// The notes on the view: a mesh drawn as a placeholder, a body to follow
// that the run does not have. A robot whose meshes are all missing gives one
// note per mesh; listed in full they covered a third of the view, so past
// FOLDED notes the list folds under a one-line summary (click to unfold), and
// the box has a close button (it opens again with the next run's notes).

/** more notes than this fold under their summary */
const FOLDED = 2;

export class NotesBox {
  private readonly details: HTMLDetailsElement;
  private readonly summary: HTMLElement;
  private closed = false;

  constructor(
    private readonly box: HTMLElement,
    private readonly list: HTMLElement,
  ) {
    this.details = box.querySelector('details')!;
    this.summary = box.querySelector('summary')!;
    box.querySelector('button.close')!.addEventListener('click', () => ((this.closed = true), this.layout()));
  }

  /** add a note */
  add(text: string): void {
    this.list.append(Object.assign(document.createElement('li'), { textContent: text }));
    this.layout();
  }

  /** no notes (a new run): the box may show again */
  clear(): void {
    this.list.replaceChildren();
    this.closed = false;
    this.layout();
  }

  /** every note, folded or not */
  texts(): string[] {
    return [...this.list.children].map((li) => li.textContent ?? '');
  }

  private layout(): void {
    const n = this.list.children.length;
    this.box.hidden = n === 0 || this.closed;
    const fold = n > FOLDED;
    this.summary.hidden = !fold;
    this.summary.textContent = fold ? `${n} notes on this view: ${this.list.children[0].textContent}, …` : '';
    // a few notes show in full; more stay folded until the user unfolds them
    if (!fold) this.details.open = true;
    else if (n === FOLDED + 1) this.details.open = false;
  }
}
