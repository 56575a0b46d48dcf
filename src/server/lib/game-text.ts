/** Most player names kept from one poll. */
export const MAX_PLAYER_NAMES = 200;

/**
 * Text a game server sent (a map, a version, a player's name), made safe to store and show: no
 * control, format or bidi-override characters, spaces collapsed, at most `max` characters. Empty
 * or not text: null. React escapes it when shown; this keeps it from breaking the layout.
 */
export function cleanGameText(value: unknown, max: number): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value).replace(/\p{C}/gu, ' ').replace(/\s+/g, ' ').trim();
  if (!text) return null;
  const chars = [...text];
  return chars.length > max ? chars.slice(0, max).join('') : text;
}

/** The names of a player list (objects with `name`, or strings), cleaned, at most `MAX_PLAYER_NAMES`. */
export function cleanPlayerNames(list: unknown): string[] | null {
  if (!Array.isArray(list)) return null;
  const names: string[] = [];
  for (const entry of list) {
    const name = cleanGameText(typeof entry === 'object' && entry !== null ? (entry as { name?: unknown }).name : entry, 32);
    if (name) names.push(name);
    if (names.length >= MAX_PLAYER_NAMES) break;
  }
  return names;
}
