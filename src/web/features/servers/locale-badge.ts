/**
 * The language and region filters a card sums up in one short badge ("EN · NA"), so they need
 * not take tag space. Filters an admin adds later without a code here stay ordinary tags.
 */
const LANGUAGE_CODES: Readonly<Record<string, string>> = {
  English: 'EN',
  German: 'DE',
  French: 'FR',
  Spanish: 'ES',
  Portuguese: 'PT',
  Dutch: 'NL',
  Polish: 'PL',
  Swedish: 'SV',
  Turkish: 'TR',
  Arabic: 'AR',
};

const REGION_CODES: Readonly<Record<string, string>> = {
  'North America': 'NA',
  Europe: 'EU',
  'South America': 'SA',
  Oceania: 'OC',
  Asia: 'AS',
  'Middle East': 'ME',
};

export interface LocaleBadge {
  /** "EN · NA": the first language and the first region, whichever the server has. */
  short: string;
  /** "English, North America": the names as the API has them (the card shows `names` translated). */
  long: string;
  /** The language and region filters' names, for screen readers and the tooltip: translated where shown. */
  names: readonly string[];
  /** The filters the badge stands for, so the tag list can leave them out. */
  covered: ReadonlySet<string>;
}

/** The badge of a server's filters, or undefined when it names no known language or region. */
export function localeBadge(filters: readonly string[]): LocaleBadge | undefined {
  const language = filters.find((f) => Object.hasOwn(LANGUAGE_CODES, f));
  const region = filters.find((f) => Object.hasOwn(REGION_CODES, f));
  if (!language && !region) return undefined;
  const codes = [language && LANGUAGE_CODES[language], region && REGION_CODES[region]].filter(Boolean);
  const names = [language, region].filter((n): n is string => Boolean(n));
  return { short: codes.join(' · '), long: names.join(', '), names, covered: new Set(names) };
}
