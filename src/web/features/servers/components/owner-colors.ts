import type { CSSProperties } from 'react';
import { hasDefaultColors } from '../../../../shared/colors';

/**
 * The inline colours of a server's own blocks: the owner's, once chosen. A server still on the
 * colours every server starts with (white, black) is drawn in the site's theme instead of as a
 * white slab on a dark page.
 */
export function ownerColors(server: { backgroundColor: string; textColor: string }): CSSProperties | undefined {
  return hasDefaultColors(server) ? undefined : { backgroundColor: server.backgroundColor, color: server.textColor };
}
