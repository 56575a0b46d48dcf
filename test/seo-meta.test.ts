import { describe, expect, it } from 'vitest';
import { metaTags } from '../src/server/modules/seo/meta';

const page = { title: 'A', description: 'B', url: 'http://localhost:3000/servers/1' };

describe('the preload of a page picture', () => {
  it('names an upload of this site', () => {
    expect(metaTags({ ...page, preloadImage: '/uploads/banners/a1.webp' })).toContain(
      '<link rel="preload" as="image" href="/uploads/banners/a1.webp" fetchpriority="high" />',
    );
  });

  it('is left out for anything else: another origin, a path outside uploads, markup, a climb out', () => {
    for (const src of [
      'https://evil.example/a.webp',
      '//evil.example/a.webp',
      '/api/admin',
      '/uploads/a.webp" onload="alert(1)',
      '/uploads/../data/db',
      'javascript:alert(1)',
      '',
      null,
      undefined,
    ]) {
      expect(metaTags({ ...page, preloadImage: src }), String(src)).not.toContain('rel="preload"');
    }
  });
});
