import { byId, el } from './dom';
import type { WatchlistGroup } from './types';

export interface WatchlistActions {
  createGroup(name: string): Promise<void>;
  addCoin(group: WatchlistGroup, coin: string): Promise<void>;
  removeCoin(group: WatchlistGroup, coin: string): Promise<void>;
  /** Any failure, shown by the page's notice. */
  failed(error: unknown): void;
}

/**
 * The wallet's watchlist groups: one card each, its coins as removable chips and a form to add one, plus a
 * form for a new group. The server validates coins (the /hl coins and the catalogue's symbols) and limits.
 */
export class WatchlistView {
  private readonly list = byId('watchlist-groups', HTMLDivElement);
  private readonly empty = byId('watchlist-empty', HTMLParagraphElement);
  private readonly form = byId('create-group-form', HTMLFormElement);
  private readonly nameInput = byId('group-name', HTMLInputElement);

  constructor(private readonly actions: WatchlistActions) {
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      const name = this.nameInput.value.trim();
      if (name === '') return;
      void this.busy(this.form, async () => {
        await this.actions.createGroup(name);
        this.nameInput.value = '';
      });
    });
  }

  render(groups: readonly WatchlistGroup[]): void {
    this.list.replaceChildren(...groups.map((group) => this.group(group)));
    this.empty.hidden = groups.length > 0;
  }

  clear(): void {
    this.render([]);
    this.nameInput.value = '';
  }

  private group(group: WatchlistGroup): HTMLElement {
    const box = el('section', undefined, 'watch-group');
    box.setAttribute('aria-label', `Watchlist ${group.name}`);
    box.append(el('h3', `${group.name} (${group.entryCount})`));
    const coins = el('ul', undefined, 'chips');
    for (const { coin } of group.entries) {
      const remove = el('button', '×', 'chip-remove secondary');
      remove.type = 'button';
      remove.setAttribute('aria-label', `Remove ${coin} from ${group.name}`);
      remove.addEventListener('click', () => void this.busy(remove, () => this.actions.removeCoin(group, coin)));
      const chip = el('li', undefined, 'chip');
      chip.append(el('span', coin), remove);
      coins.append(chip);
    }
    if (group.entries.length === 0) coins.append(el('li', 'No coins yet.', 'hint'));

    const form = el('form', undefined, 'inline-form');
    const inputId = `add-coin-${group.id}`;
    const label = el('label', `Add a coin to ${group.name}`);
    label.htmlFor = inputId;
    const input = el('input');
    Object.assign(input, { id: inputId, required: true, maxLength: 64, autocomplete: 'off', placeholder: 'BTC, xyz:TSLA, AAPL' });
    const add = el('button', 'Add coin');
    add.type = 'submit';
    form.append(label, input, add);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const coin = input.value.trim();
      if (coin !== '') void this.busy(form, () => this.actions.addCoin(group, coin));
    });
    box.append(coins, form);
    return box;
  }

  /** Disables the control (or the form's controls) while its request runs; a failure goes to the notice. */
  private async busy(target: HTMLButtonElement | HTMLFormElement, action: () => Promise<void>): Promise<void> {
    const controls = target instanceof HTMLFormElement ? [...target.querySelectorAll('button, input')] : [target];
    for (const control of controls) (control as HTMLButtonElement).disabled = true;
    try {
      await action();
    } catch (error) {
      this.actions.failed(error);
    } finally {
      for (const control of controls) (control as HTMLButtonElement).disabled = false;
    }
  }
}
