/** The phone menu button's icon paths: bars while closed, a cross while open (the landing page's script swaps them too). */
export const MENU_ICON_PATH = { closed: 'M4 7h16M4 12h16M4 17h16', open: 'M6 6l12 12M18 6L6 18' } as const;
