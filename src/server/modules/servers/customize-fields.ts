import { customizeFieldsSchema, type CustomizeFields } from '../../../shared/schemas/server';
import { badRequest } from '../../errors';

const FILTERS_NOT_A_LIST = 'Filters must be a JSON array of filter names';

/**
 * Parses the text fields of a customisation (multipart, so every value is a string); `filters`
 * arrives as a JSON array of names. The first problem answers 400.
 */
export function parseCustomizeFields(raw: Record<string, string>): CustomizeFields {
  let filtersValue: unknown;
  if (raw.filters !== undefined) {
    try {
      filtersValue = JSON.parse(raw.filters);
    } catch {
      throw badRequest(FILTERS_NOT_A_LIST);
    }
    if (!Array.isArray(filtersValue)) throw badRequest(FILTERS_NOT_A_LIST);
  }
  const parsed = customizeFieldsSchema.safeParse({ ...raw, filters: filtersValue });
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid input');
  return parsed.data;
}
