/** How the search index splits names into what it looks words up by (the SQL path's matching rules). */

/** Words shorter than this match a whole word of the name; longer ones anywhere in it (as the SQL path). */
export const SUBSTRING_MIN = 3;
/** A short word matched by the word postings: letters and digits only. */
export const INDEXED_WORD = /^[\p{L}\p{N}]+$/u;
const WORD_SPLIT = /[^\p{L}\p{N}]+/u;

/** Every 3-character piece of a lower-case name. */
export const trigramsOf = (name: string): Set<string> => {
  const out = new Set<string>();
  for (let i = 0; i + SUBSTRING_MIN <= name.length; i++) out.add(name.slice(i, i + SUBSTRING_MIN));
  return out;
};
/** The name's whole words shorter than SUBSTRING_MIN. */
export const shortWordsOf = (name: string): Set<string> =>
  new Set(name.split(WORD_SPLIT).filter((w) => w.length > 0 && w.length < SUBSTRING_MIN));

/** Text that matches itself literally inside a regular expression. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
