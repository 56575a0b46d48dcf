import { useLingui } from '@lingui/react';

/**
 * The end of a filter's or category's message id: its name lower-cased, every run of other
 * characters than letters and digits one `-` ("Police & EMS" → "police-ems").
 */
export function filterSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export interface FilterLabels {
  /** A filter's name as shown: its translation (`filters.name.<slug>`), or the name as the API sent it. */
  filter: (name: string) => string;
  /** A filter category's name as shown: its translation (`filters.category.<slug>`), or the name as it is. */
  category: (name: string) => string;
}

/**
 * Filter and category names in the page's language. The API's English names stay the values
 * (search URLs, saved filters); only what is shown is translated. A name the catalog lacks (a game
 * or platform name, a filter added later) is shown as it came.
 */
export function useFilterLabels(): FilterLabels {
  const { i18n, _ } = useLingui();
  const label = (kind: 'name' | 'category', name: string): string => {
    const id = `filters.${kind}.${filterSlug(name)}`;
    return Object.hasOwn(i18n.messages, id) ? _(id) : name;
  };
  return { filter: (name) => label('name', name), category: (name) => label('category', name) };
}
