import { describe, expect, it } from 'vitest';
import { contrastRatio, hasDefaultColors } from './colors';

describe('colour contrast', () => {
  it('computes WCAG ratios: 21 for black on white, 1 for a colour on itself, known pairs', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    // #767676 on white is the classic lightest grey that passes AA (4.54:1).
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
  });

  it('knows the colours a new server starts with, in any case', () => {
    expect(hasDefaultColors({ backgroundColor: '#FFFFFF', textColor: '#000000' })).toBe(true);
    expect(hasDefaultColors({ backgroundColor: '#123456', textColor: '#fafafa' })).toBe(false);
  });
});
