// SVG path data, not text.
const CLOSED_BARS = 'M4 7h16M4 12h16M4 17h16';
const OPEN_CROSS = 'M6 6l12 12M18 6L6 18';

/** The phone menu button's icon paths: bars while closed, a cross while open (the landing page's script swaps them too). */
export const MENU_ICON_PATH = { closed: CLOSED_BARS, open: OPEN_CROSS } as const;
