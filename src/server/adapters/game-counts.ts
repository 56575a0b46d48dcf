/** The most players any game server is believed to hold; a bigger count is refused. */
export const MAX_PLAYERS = 100_000;

/** Counts from a game server are untrusted: whole numbers in a sane range (digits in a string count), or undefined. */
export function gameCount(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 && n <= MAX_PLAYERS ? n : undefined;
}
