/**
 * True for an error one row's data can cause (a data exception, class 22, or an integrity
 * constraint, class 23) or a deadlock with another instance: statements that carried many
 * requests' rows are worth running again row by row after one of these, and only after these.
 */
export function isRowLevelError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23') || code === '40P01');
}
