/**
 * Hands the app what a visitor typed or chose in a rendered page before the app took it over (see
 * ./boot.ts). Hydration keeps the page's elements and what they hold, but the components still
 * hold what the server drew (an empty search box): each changed field is announced to the app as
 * the browser announces an edit, so the component takes the value the field shows.
 */
export function copyTypedValues(root: ParentNode): void {
  for (const field of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')) {
    if (field instanceof HTMLInputElement && !TEXT_TYPES.has(field.type)) continue;
    // The value the app drew is the field's default (React writes it there as it hydrates).
    if (field.value === field.defaultValue) continue;
    announceTyped(field);
  }
  for (const select of root.querySelectorAll('select')) {
    const chosen = [...select.options].some((option) => option.selected !== option.defaultSelected);
    if (chosen) select.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

/** Input types a person types into (the rest are tapped, and a tap is played again as a click). */
const TEXT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'number', 'password', '']);

/**
 * React tells an edit from its own writes by the last value it wrote through the field's `value`
 * property: write the drawn value through it, put the typed text back past it (the prototype's
 * setter), and the `input` event then reads as the visitor's edit.
 */
function announceTyped(field: HTMLInputElement | HTMLTextAreaElement): void {
  const typed = field.value;
  const prototype = field instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
  const setValue = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (!setValue) return;
  field.value = field.defaultValue;
  setValue.call(field, typed);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}
