import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from './accounts';
import { noisePng, registerUser } from './api';
import { expectNoPageErrors, expectPath, launchBrowser, loginThroughForm, newPage } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Records every value a progress bar shows, since a fast upload passes quickly. */
async function recordProgress(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { __progress: number[] }).__progress = seen;
    new MutationObserver(() => {
      for (const bar of document.querySelectorAll('[role="progressbar"]')) seen.push(Number(bar.getAttribute('aria-valuenow')));
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  });
  return () => page.evaluate(() => (window as unknown as { __progress: number[] }).__progress);
}

/** Slows uploads down (Chromium's network emulation) so the progress bar has something to show. */
async function throttleUploads(page: Page, bytesPerSecond: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

describe('owner dashboard', () => {
  it('customises a server with a live preview, uploads a banner and gallery image with progress, and saves', async () => {
    const { context, page, errors } = await newPage(browser);
    await loginThroughForm(page, DEMO.owner, DEMO.password, '/dashboard');
    await page.waitForURL((url) => /^\/dashboard\/\d+$/.test(url.pathname));
    const id = new URL(page.url()).pathname.split('/').pop()!;
    // demo_owner has three servers: a picker, and no "Add server" limit hidden.
    const picker = page.getByRole('navigation', { name: 'Your servers' });
    await expect.poll(() => picker.getByRole('link').count()).toBe(3);
    expect(await picker.locator('a[aria-current="page"]').getAttribute('href')).toBe(`/dashboard/${id}`);
    expect(await page.getByRole('link', { name: '+ Add server' }).getAttribute('href')).toBe('/quick-create');

    const preview = page.getByTestId('server-preview');
    const name = `Customised RP ${Date.now().toString(36)}`;
    await page.getByLabel('Server name').fill(name);
    await page.getByLabel('Status message').fill('Now with a brand new look');
    await page.getByLabel('Bio').fill('Line one of the bio.\nLine two with <i>tags</i> kept as text.');
    expect(await page.getByText(`${'Line one of the bio.\nLine two with <i>tags</i> kept as text.'.length}/300`).count()).toBe(1);
    // Colours are checked for contrast as they are picked: grey on dark blue warns, near-white reads well.
    await page.getByLabel('Background colour', { exact: true }).fill('#123456');
    await page.getByLabel('Text colour', { exact: true }).fill('#445566');
    await page.getByRole('alert').filter({ hasText: 'below the 4.5:1 that text needs to be easy to read (WCAG AA)' }).waitFor();
    await page.getByLabel('Text colour', { exact: true }).fill('#fafafa');
    await expect.poll(() => page.getByTestId('contrast-note').textContent()).toMatch(/^Contrast 1[0-9]\.\d:1: readable \(WCAG AA\)\.$/);
    await page.getByLabel('Discord invite link').fill('https://discord.gg/customised');
    // The preview follows the form before anything is saved.
    await expect.poll(() => preview.getByRole('heading', { level: 2 }).first().textContent()).toBe(name);
    const heroColours = () =>
      preview
        .locator('> div')
        .first()
        .evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
    expect(await heroColours()).toEqual(['rgb(18, 52, 86)', 'rgb(250, 250, 250)']);

    const filter = page.getByRole('button', { name: 'Voice Chat', exact: true });
    const wasOn = (await filter.getAttribute('aria-pressed')) === 'true';
    await filter.click();
    expect(await filter.getAttribute('aria-pressed')).toBe(String(!wasOn));

    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await page.getByRole('note').count()).toBe(0); // Premium: no plan notice

    // Uploads: progress while sending, then the new image in the preview.
    const progress = await recordProgress(page);
    await throttleUploads(page, 400 * 1024);
    const banner = await noisePng(900, 300); // ~800 kB that do not compress
    const oldBanner = await preview.locator('img').first().getAttribute('src');
    await page.getByLabel('Banner', { exact: true }).setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: banner });
    await page.getByRole('progressbar', { name: 'Banner upload' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Image uploaded.' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => preview.locator('img').first().getAttribute('src')).not.toBe(oldBanner);
    const seen = await progress();
    expect(
      seen.some((v) => v > 0 && v < 100),
      `progress values seen: ${seen.join(',')}`,
    ).toBe(true);

    const gallery = page.getByTestId('gallery-manager');
    const before = await gallery.getByRole('img').count();
    await page.getByLabel(/^Gallery \(/).setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: await noisePng(480, 270) });
    await expect.poll(() => gallery.getByRole('img').count(), { timeout: 30_000 }).toBe(before + 1);

    // Client-side checks answer with the server's wording before anything is sent.
    await page.getByLabel('Profile picture').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('Only JPEG, PNG, WebP or GIF images can be uploaded.');

    // The public page shows it all.
    await page.goto(`/servers/${id}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    expect(await page.getByText('Line two with <i>tags</i> kept as text.', { exact: false }).count()).toBe(1);
    expect(await page.getByRole('link', { name: /Join Discord/ }).getAttribute('href')).toBe('https://discord.gg/customised');
    expect(await page.getByRole('button', { name: /Open image/ }).count()).toBe(before + 1);
    await page
      .getByRole('button', { name: /Open image/ })
      .last()
      .click();
    const lightbox = page.getByRole('dialog');
    await lightbox.waitFor();
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'hidden' });
    // Owners cannot vote on their own server.
    expect(await page.getByRole('button', { name: 'Join' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Like', exact: true }).isDisabled()).toBe(true);

    // Remove the image again from the dashboard.
    await page.goto(`/dashboard/${id}`);
    await page.getByRole('button', { name: `Remove gallery image ${before + 1}` }).click();
    await expect.poll(() => page.getByTestId('gallery-manager').getByRole('img').count()).toBe(before);
    expectNoPageErrors(errors);
    await context.close();
  });
});

describe('quick create', () => {
  it('a new owner creates their first server and is told saving needs a plan', async () => {
    const owner = await registerUser('server_owner');
    const { context, page, errors } = await newPage(browser);
    await loginThroughForm(page, owner.username, owner.password, '/quick-create');
    await page.goto('/dashboard');
    await expectPath(page, '/quick-create');
    await page.getByRole('status').filter({ hasText: 'You do not have a server to manage.' }).waitFor();

    await page.getByRole('button', { name: 'Create server' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Server name is required');
    const name = `Fresh Start RP ${Date.now().toString(36)}`;
    await page.getByLabel('Server name').fill(name);
    await page.getByLabel('Status message').fill('Opening night!');
    await page.getByRole('button', { name: 'Create server' }).click();
    await page.waitForURL((url) => /^\/dashboard\/\d+$/.test(url.pathname));
    await expect.poll(() => page.getByLabel('Server name').inputValue()).toBe(name);
    expect(await page.getByRole('navigation', { name: 'Your servers' }).count()).toBe(0);

    await page.getByRole('note').filter({ hasText: 'Pro or Premium' }).waitFor();
    expect(await page.getByRole('link', { name: 'see the plans' }).getAttribute('href')).toBe('/subscriptions');
    await page.getByLabel('Status message').fill('Changed');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Only Pro or Premium users can save their server.');

    // A second server needs Premium.
    await page.goto('/quick-create');
    await page.getByLabel('Server name').fill('Second one');
    await page.getByRole('button', { name: 'Create server' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Premium subscription required.');
    expectNoPageErrors(errors);
    await context.close();
  });
});
