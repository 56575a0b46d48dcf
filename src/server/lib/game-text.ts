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

/** The longest text of a claim field kept (a MOTD is two lines, a FiveM description a paragraph). */
const SEEN_MAX = 300;

/**
 * A field of the game's answer where an owner can put a claim's code, as the owner will see it:
 * colour codes out (Minecraft's `§a`, FiveM's `^1`), cleaned like any game text. Null when empty.
 */
export function seenField(field: string, value: unknown): { field: string; text: string } | null {
  const text = cleanGameText(typeof value === 'string' ? value.replace(/\u00A7./g, '').replace(/\^\d/g, '') : value, SEEN_MAX);
  return text ? { field, text } : null;
}
