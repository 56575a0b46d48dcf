/**
 * Loads the owners', payments' and admins' messages before one of their pages draws; nothing to do
 * where the page is rendered in Node, whose catalogs hold every message.
 */
export async function ensureManageCatalog(): Promise<void> {
  if (typeof document === 'undefined') return;
  const { loadManageCatalog } = await import('./browser');
  await loadManageCatalog();
}
