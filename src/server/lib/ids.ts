/** Database ids are numbers; the API's are strings of digits (docs/decisions/002-ids-and-types.md). */
export const toApiId = (id: number): string => String(id);

/** Parses an id from a URL or body; undefined when it cannot be an id (answer 404, not 500). */
export function parseId(value: string | undefined | null): number | undefined {
  if (!value || !/^\d{1,15}$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
