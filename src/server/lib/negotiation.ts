/** How a request says which bytes it wants: its `If-None-Match` and `Accept-Encoding` headers. */

/** Whether an `If-None-Match` header names this ETag (weak comparison, as RFC 9110 asks for it). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (etag.startsWith('W/') ? etag.slice(2) : etag).slice(1, -1);
  for (const part of header.split(',')) {
    const tag = part.trim();
    const value = tag.startsWith('W/') ? tag.slice(2) : tag;
    if (value.length === bare.length + 2 && value.slice(1, -1) === bare) return true;
  }
  return false;
}

// Browsers send a handful of distinct Accept-Encoding values: each is parsed once.
const chosen = new Map<string, 'br' | 'gzip' | undefined>();
const CHOSEN_MAX = 256;

/** The best encoding the client accepts among the ones made: brotli, then gzip, else none. */
export function chooseEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  if (chosen.has(header)) return chosen.get(header);
  const encoding = parseEncoding(header);
  if (chosen.size >= CHOSEN_MAX) chosen.clear();
  chosen.set(header, encoding);
  return encoding;
}

function parseEncoding(header: string): 'br' | 'gzip' | undefined {
  let br = false;
  let gzip = false;
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    // `q=0` refuses an encoding.
    if (params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p))) continue;
    if (name === 'br') br = true;
    else if (name === 'gzip' || name === 'x-gzip') gzip = true;
    else if (name === '*') {
      br = true;
      gzip = true;
    }
  }
  return br ? 'br' : gzip ? 'gzip' : undefined;
}
