/** Where a checkout goes back to when the given return path cannot be trusted. */
export const DEFAULT_RETURN_PATH = '/payments';

/** Longest return path kept; longer ones are cut (a stored path never grows without bound). */
export const RETURN_PATH_MAX = 200;

// A path on this site: one leading slash (never `//`, which a browser reads as another host), then
// only letters, digits, `_ - . / ? = & %`. That leaves out `\` (read as `/`), `:` (a scheme),
// whitespace and control characters (browsers drop tabs and newlines, so `/\t/evil` becomes `//evil`).
const SITE_PATH = /^\/(?!\/)[\w\-./?=&%]*$/;

// Percent-encoded `/`, `\` and `.`: some servers and browsers decode them into a second slash or a
// `..` segment, so they could rebuild what the plain-character rules refuse.
const ENCODED_SEPARATOR = /%(2f|5c|2e)/i;

/**
 * `path` when it is a path on this site, else `fallback` ({@link DEFAULT_RETURN_PATH} by default): a return path comes
 * from the client and is stored, so it must never send the browser to another site (open
 * redirect) or climb out of its folder with `..`. Kept paths are cut to {@link RETURN_PATH_MAX}
 * characters. Used by the server when it stores a checkout's return path and by the web app
 * before it navigates there.
 */
export function safeReturnPath(path: string | null | undefined, fallback: string = DEFAULT_RETURN_PATH): string {
  if (typeof path !== 'string' || !SITE_PATH.test(path) || path.includes('..') || ENCODED_SEPARATOR.test(path)) {
    return fallback;
  }
  return path.slice(0, RETURN_PATH_MAX);
}
