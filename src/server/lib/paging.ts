/**
 * The total of a paged list read with a window count (`count(*) OVER ()`): it rides on the page's
 * rows, so a page past the end has none to carry it and the total is counted on its own.
 */
export async function pageTotal(
  rows: ReadonlyArray<{ total: number | string }>,
  offset: number,
  count: () => Promise<number>,
): Promise<number> {
  const first = rows[0];
  if (first) return Number(first.total);
  return offset > 0 ? count() : 0;
}
