import { DEFAULT_COLORS } from './limits';

/** The contrast WCAG 2 level AA asks of normal-size text against its background. */
export const WCAG_AA_CONTRAST = 4.5;

/** A `#rrggbb` colour's relative luminance (WCAG 2), 0 (black) to 1 (white). */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The WCAG contrast ratio of two `#rrggbb` colours: 1 (none) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Whether a server still has the colours every new server starts with (it never chose its own). */
export function hasDefaultColors(server: { backgroundColor: string; textColor: string }): boolean {
  return server.backgroundColor.toLowerCase() === DEFAULT_COLORS.background && server.textColor.toLowerCase() === DEFAULT_COLORS.text;
}
