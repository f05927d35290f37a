/** The element with this id, of the expected type; a missing one is a bug in index.html, so it throws. */
export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`portal: #${id} is missing or not a ${type.name}`);
  return element;
}

/** An element with text content only: nothing from the server is ever parsed as HTML. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (text !== undefined) element.textContent = text;
  if (className) element.className = className;
  return element;
}

/** A table cell that carries its column's name, shown beside the value when the table stacks on a phone. */
export function cell(label: string, text: string, className?: string): HTMLTableCellElement {
  const td = el('td', text, className);
  td.dataset.label = label;
  return td;
}
