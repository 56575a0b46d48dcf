/**
 * SQL writing a `timestamptz` column as the API writes times (`Date#toISOString`: UTC, milliseconds
 * cut, not rounded, as the driver's Dates are), for statements that answer JSON made by the database.
 */
export const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
