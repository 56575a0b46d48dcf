/** The most players any game server is believed to hold; a bigger count is refused. */
export const MAX_PLAYERS = 100_000;

/** Counts from a game server are untrusted: whole numbers in a sane range (digits in a string count), or undefined. */
export function gameCount(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 && n <= MAX_PLAYERS ? n : undefined;
}

/**
 * The count to show: a game that reports more players than its own maximum, or (where it lists
 * every player) more than it lists, is shown with the lower number and flagged, so an inflated
 * count can neither lead the Players sort nor pass unnoticed.
 */
export function plausibleCount(
  reported: number,
  max: number | null,
  listed?: number,
): { players: number; maxPlayers: number | null; flag: string | null } {
  let players = reported;
  const flags: string[] = [];
  if (listed !== undefined && players > listed) {
    flags.push(`reported ${reported} players but listed ${listed}`);
    players = listed;
  }
  if (max !== null && players > max) {
    flags.push(`reported ${reported} players for ${max} slots`);
    players = max;
  }
  return { players, maxPlayers: max, flag: flags.length > 0 ? flags.join('; ') : null };
}
