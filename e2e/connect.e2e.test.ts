import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerUser } from './api';
import { DESKTOP, PHONE, expectNoPageErrors, launchBrowser, newPage, screenshot, signIn } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface Detail {
  id: string;
  name: string;
  totalJoins: number;
  connect: { address: string; links: Array<{ label: string; url: string }> } | null;
}

/** The first demo servers whose game is connected: one with a game link (FiveM), one without (Minecraft: the address is pasted). */
async function connectedServers(): Promise<{ linked: Detail; pasted: Detail }> {
  const list = await api<Array<{ id: string }>>('GET', '/api/servers?online=true&limit=60');
  let linked: Detail | undefined;
  let pasted: Detail | undefined;
  for (const { id } of list) {
    const detail = await api<Detail>('GET', `/api/servers/${id}`);
    if (!detail.connect) continue;
    if (!linked && detail.connect.links.some((l) => l.url.startsWith('fivem://'))) linked = detail;
    if (!pasted && detail.connect.links.length === 0) pasted = detail;
    if (linked && pasted) return { linked, pasted };
  }
  throw new Error('the demo data has no connected FiveM and Minecraft servers');
}

describe('from a server page into the game', () => {
  it('a player copies the address and connects; either way the join is recorded once', async () => {
    const { linked, pasted } = await connectedServers();
    for (const viewport of [PHONE, DESKTOP]) {
      const phone = viewport === PHONE;
      const player = await registerUser('player');
      const { context, page, errors } = await newPage(browser, { viewport });
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await signIn(page, player);

      // FiveM: the address to copy, and Connect opens the game through its own link.
      await page.goto(`/servers/${linked.id}`);
      const play = page.getByTestId('server-connect');
      await play.getByRole('heading', { name: 'Play now' }).waitFor();
      expect(await play.getByTestId('connect-address').textContent()).toBe(linked.connect!.address);
      await play.getByRole('button', { name: 'Copy' }).click();
      await play.getByText('Copied ✓').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(linked.connect!.address);
      const connect = play.getByRole('link', { name: 'Connect in FiveM' });
      expect(await connect.getAttribute('href')).toBe(`fivem://connect/${linked.connect!.address}`);
      if (phone) await screenshot(page, 'server-connect-phone');
      // The browser hands fivem:// to the game; the page stays and the join is counted.
      await connect.evaluate((a) => a.addEventListener('click', (e) => e.preventDefault(), { once: true }));
      await connect.click();
      await page.getByRole('button', { name: '✓ Joined' }).waitFor();
      await expect.poll(async () => (await api<Detail>('GET', `/api/servers/${linked.id}`)).totalJoins).toBeGreaterThan(linked.totalJoins);

      // Minecraft: no link; copying the address is how a player goes in, so it records the join.
      const before = (await api<Detail>('GET', `/api/servers/${pasted.id}`)).totalJoins;
      await page.goto(`/servers/${pasted.id}`);
      expect(await page.getByTestId('server-connect').getByRole('link').count()).toBe(0);
      await page.getByTestId('server-connect').getByRole('button', { name: 'Copy' }).click();
      await page.getByRole('button', { name: '✓ Joined' }).waitFor();
      expect((await api<Detail>('GET', `/api/servers/${pasted.id}`)).totalJoins).toBe(before + 1);
      // A second copy is fine and counts nothing more.
      await page
        .getByTestId('server-connect')
        .getByRole('button', { name: /Copy|Copied/ })
        .click();
      expect((await api<Detail>('GET', `/api/servers/${pasted.id}`)).totalJoins).toBe(before + 1);
      expectNoPageErrors(errors);
      await context.close();
    }
  });

  it('shows the facts row under the header: live numbers for a connected server, "Not connected" and no numbers otherwise', async () => {
    const { linked } = await connectedServers();
    const notConnected = (await api<Array<{ id: string; online: boolean | null }>>('GET', '/api/servers?limit=60')).find(
      (s) => s.online === null,
    );
    expect(notConnected).toBeDefined();
    const { context, page, errors } = await newPage(browser, { viewport: PHONE });
    const fact = (label: string) => page.getByTestId('server-facts').getByText(label, { exact: true }).locator('+ dd');
    await page.goto(`/servers/${linked.id}`);
    await page.getByTestId('server-facts').waitFor();
    expect(await fact('Players now').textContent()).toMatch(/^\d+\/\d+$/);
    await fact('Peak today').waitFor();
    expect(Number(await fact('Peak today').textContent())).toBeGreaterThanOrEqual(0);
    expect(await fact('Game').textContent()).toContain('FiveM');
    expect(await fact('Checked').textContent()).toMatch(/now|ago|second|minute/);
    await page.goto(`/servers/${notConnected!.id}`);
    await page.getByTestId('server-facts').waitFor();
    expect(await fact('Players now').textContent()).toBe('Not connected');
    expect(await page.getByTestId('server-facts').getByText('Peak today').count()).toBe(0);
    expect(await page.getByTestId('server-facts').getByText('Checked').count()).toBe(0);
    expectNoPageErrors(errors);
    await context.close();
  });
});
