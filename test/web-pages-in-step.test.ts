import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const WEB = path.resolve(import.meta.dirname, '../src/web');
const read = (file: string) => fs.readFileSync(path.join(WEB, file), 'utf8');
const head = (html: string) => html.slice(0, html.indexOf('<body'));

// The landing page is a second HTML page of the build (docs/decisions/037-landing-page-without-the-app.md):
// what it shares with the app's page must not drift apart.
describe('the landing page and the app stay in step', () => {
  it('have the same head: title, description, theme colour, icons', () => {
    expect(head(read('landing.html'))).toBe(head(read('index.html')));
  });

  it('preload chunks only for paths the router has, from the page files it loads there', () => {
    const config = fs.readFileSync(path.resolve(import.meta.dirname, '../vite.config.ts'), 'utf8');
    const router = read('app/router.tsx');
    const preloads = [...config.matchAll(/'(\/[^']*)': 'src\/web\/(features\/[^']+)\.tsx'/g)].map((m) => [m[1], m[2]] as const);
    expect(preloads.length).toBeGreaterThanOrEqual(4);
    for (const [route, file] of preloads) {
      expect(router, route).toContain(`path: '${route}'`);
      expect(router, file).toContain(`import('../${file}')`);
    }
  });
});
