import { byId, cell, el } from './dom';
import { formatDateTime } from './format';
import type { ApiKey, CreatedKey } from './types';

export interface KeysActions {
  create(name: string): Promise<CreatedKey>;
  revoke(key: ApiKey): Promise<void>;
  /** Any failure, shown by the page's notice. */
  failed(error: unknown): void;
}

/**
 * The keys table, the create form, the once-only plaintext dialog and the revoke confirmation. The
 * plaintext lives in the dialog's DOM only while it is open.
 */
export class KeysView {
  private readonly body = byId('keys-body', HTMLTableSectionElement);
  private readonly empty = byId('keys-empty', HTMLParagraphElement);
  private readonly heading = byId('keys-heading', HTMLHeadingElement);
  private readonly form = byId('create-key-form', HTMLFormElement);
  private readonly nameInput = byId('key-name', HTMLInputElement);
  private readonly createButton = byId('create-key', HTMLButtonElement);
  private readonly newKeyDialog = byId('new-key-dialog', HTMLDialogElement);
  private readonly newKeyValue = byId('new-key-value', HTMLTextAreaElement);
  private readonly copyStatus = byId('copy-status', HTMLParagraphElement);
  private readonly revokeDialog = byId('revoke-dialog', HTMLDialogElement);
  private readonly revokeText = byId('revoke-text', HTMLParagraphElement);
  private pendingRevoke?: ApiKey;

  constructor(private readonly actions: KeysActions) {
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.create();
    });
    byId('copy-key', HTMLButtonElement).addEventListener('click', () => void this.copy());
    byId('close-new-key', HTMLButtonElement).addEventListener('click', () => this.newKeyDialog.close());
    // However it closes (button, Escape), the plaintext goes with it.
    this.newKeyDialog.addEventListener('close', () => {
      this.newKeyValue.value = '';
      this.copyStatus.textContent = '';
    });
    byId('cancel-revoke', HTMLButtonElement).addEventListener('click', () => this.revokeDialog.close());
    byId('confirm-revoke', HTMLButtonElement).addEventListener('click', () => void this.confirmRevoke());
    this.revokeDialog.addEventListener('close', () => (this.pendingRevoke = undefined));
  }

  render(keys: readonly ApiKey[]): void {
    this.body.replaceChildren(...keys.map((key) => this.row(key)));
    this.empty.hidden = keys.length > 0;
  }

  clear(): void {
    this.render([]);
    this.nameInput.value = '';
    if (this.newKeyDialog.open) this.newKeyDialog.close();
    if (this.revokeDialog.open) this.revokeDialog.close();
  }

  private row(key: ApiKey): HTMLTableRowElement {
    const tr = el('tr');
    const name = nameOf(key);
    const status = cell('Status', '');
    status.append(el('span', key.status, `badge badge-${key.status}`));
    const action = cell('Action', '', 'actions');
    if (key.status === 'active') {
      const revoke = el('button', 'Revoke', 'danger');
      revoke.type = 'button';
      revoke.setAttribute('aria-label', `Revoke key ${name} (${key.prefix})`);
      revoke.addEventListener('click', () => this.askRevoke(key));
      action.append(revoke);
    }
    const prefix = cell('Prefix', '');
    prefix.append(el('code', key.prefix));
    tr.append(
      cell('Name', name, key.name === null ? 'unnamed' : undefined),
      prefix,
      cell('Created', formatDateTime(key.createdAt)),
      cell('Last used', formatDateTime(key.lastUsedAt)),
      status,
      action,
    );
    return tr;
  }

  private async create(): Promise<void> {
    const name = this.nameInput.value.trim();
    if (!this.form.reportValidity() || name === '') return;
    this.createButton.disabled = true;
    try {
      const created = await this.actions.create(name);
      this.nameInput.value = '';
      this.newKeyValue.value = created.key;
      this.newKeyDialog.showModal();
    } catch (error) {
      this.actions.failed(error);
    } finally {
      this.createButton.disabled = false;
    }
  }

  private async copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.newKeyValue.value);
      this.copyStatus.textContent = 'Copied to the clipboard.';
    } catch {
      // No clipboard permission (or an insecure origin): leave the key selected for Ctrl+C / Cmd+C.
      this.newKeyValue.focus();
      this.newKeyValue.select();
      this.copyStatus.textContent = 'Copying is not allowed here: the key is selected, press Ctrl+C (Cmd+C) to copy it.';
    }
  }

  private askRevoke(key: ApiKey): void {
    this.pendingRevoke = key;
    this.revokeText.textContent = `Revoke "${nameOf(key)}" (${key.prefix})? Requests with this key are refused within 5 seconds. This cannot be undone.`;
    this.revokeDialog.showModal();
  }

  private async confirmRevoke(): Promise<void> {
    const key = this.pendingRevoke;
    this.revokeDialog.close();
    if (!key) return;
    try {
      await this.actions.revoke(key);
    } catch (error) {
      this.actions.failed(error);
    }
    // The row's button is gone after the re-render: focus goes somewhere that still exists.
    this.heading.focus();
  }
}

export function nameOf(key: ApiKey): string {
  return key.name ?? 'unnamed (ops CLI)';
}
