// Plain constants, no React: where the pre-rendered landing page keeps the texts its script may
// write (components/island-texts.tsx renders them; static/island.ts reads them).

/** The inert template whose attributes hold the texts, in the page's language. */
export const ISLAND_TEXTS_ID = 'landing-texts';

/** Each text's attribute (the install hints have theirs from `installHintAttribute`). */
export const ISLAND_TEXT = {
  menuClose: 'data-menu-close',
  installReady: 'data-install-ready',
  installWaiting: 'data-install-waiting',
} as const;
