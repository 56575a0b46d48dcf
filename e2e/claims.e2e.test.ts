import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFakeFiveM, startFakeMinecraft, type Answer } from '../test/helpers/fake-game-servers';
import { E2E_ADMIN } from './accounts';
import { api, apiLogin, registerUser } from './api';
import { DESKTOP, PHONE, SCREENSHOT_DIR, expectNoPageErrors, launchBrowser, newPage, screenshot, signIn, uniqueName } from './browser';

/** The loopback ports the e2e server may ask (OUTBOUND_TEST_TARGETS): one fake game server each. */
const [PHONE_PORT, DESKTOP_PORT, ADMIN_PORT] = inject('gamePorts');

let browser: Browser;
let admin: { token: string; user: Record<string, unknown> };
const fakes: Array<{ close: () => Promise<void> }> = [];
beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiLogin(E2E_ADMIN.username, E2E_ADMIN.password); // once: logins are rate-limited per username
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(fakes.map((f) => f.close()));
});

/** A fake game server of the journey's own on a port the e2e server may reach: Minecraft or FiveM. */
async function fakeGame(game: 'minecraft' | 'fivem', port: number | undefined, answer: Answer) {
  expect(port, 'global setup provides the game ports').toBeDefined();
  const fake = game === 'minecraft' ? await startFakeMinecraft(answer, port) : await startFakeFiveM(answer, port);
  fakes.push(fake);
  return fake;
}

/**
 * The whole page from its top, and the part under review on its own (the live status panel by
 * default), without the sticky bar scrolled over it.
 */
async function shoot(page: Page, name: string, part = page.getByTestId('live-status')): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
  const box = await part.boundingBox();
  expect(box, `${name}: the part to shoot is on the page`).not.toBeNull();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-part.png`, fullPage: true, clip: box! });
}

type GameStatus = { claim: { status: string; code: string | null } | null };

/** The Players tile of the public server page, reloaded until it reads `expected` (pages are cached for a moment). */
async function expectPublicPlayers(page: Page, serverId: string, expected: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.goto(`/servers/${serverId}`);
        return page.getByTestId('server-stats').getByText('Players', { exact: true }).locator('+ dd').textContent();
      },
      { timeout: 20_000, interval: 1000 },
    )
    .toBe(expected);
}

describe('game address claims', () => {
  it('an owner connects a game address, sees the code and the answer, puts the code in and gets verified', async () => {
    const cases = [
      { viewport: PHONE, name: 'phone', game: 'minecraft', port: PHONE_PORT, field: 'MOTD' },
      { viewport: DESKTOP, name: 'desktop', game: 'fivem', port: DESKTOP_PORT, field: 'sv_projectDesc' },
    ] as const;
    for (const c of cases) {
      const owner = await registerUser('server_owner');
      const server = await api<{ id: string }>(
        'POST',
        '/api/servers',
        { name: uniqueName('Claim RP'), statusMessage: 'Proving it' },
        owner.token,
      );
      const answer: Answer = { players: 5, max: 20, name: 'Sunset RP | Serious roleplay', projectDesc: 'Jobs, gangs and a harbour' };
      const game = await fakeGame(c.game, c.port, answer);

      // The clipboard may be read back, to see that Copy copies the code.
      const { context, page, errors } = await newPage(browser, {
        viewport: c.viewport,
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      const visitor = await newPage(browser, { viewport: c.viewport });
      await signIn(page, owner);
      await page.goto(`/dashboard/${server.id}`);
      const panel = page.getByTestId('live-status');
      await panel.waitFor();
      await panel.getByLabel('Game').selectOption(c.game);
      await panel.getByLabel('Server address').fill('127.0.0.1');
      await panel.getByLabel('Port').fill(String(game.port));
      await panel.getByRole('button', { name: 'Save and check now' }).click();

      // Pending: the code to put in, what the game answered, and numbers only the owner sees.
      const box = panel.getByTestId('claim-box');
      await expect.poll(() => box.getAttribute('data-claim'), { timeout: 15_000 }).toBe('pending');
      await box.getByText('Waiting for verification: nothing from this address shows publicly yet.').waitFor();
      const code = (await box.getByTestId('claim-code').textContent())!;
      expect(code).toMatch(/^rps-[A-Z0-9]{5}$/);
      expect(await page.getByTestId('live-status-line').textContent()).toContain('Online, 5/20 players (only you see this until verified)');
      const said = box.getByTestId('claim-answer');
      await said.getByText(c.field, { exact: true }).waitFor();
      await said.getByText(c.field === 'MOTD' ? answer.name! : answer.projectDesc!, { exact: true }).waitFor();
      expect(await box.getByTestId('claim-found').textContent()).toBe('Code not found');
      if (c.game === 'fivem') expect(await box.textContent()).toContain(`sets sv_projectDesc "… ${code}"`);
      await expectPublicPlayers(visitor.page, server.id, 'Not connected');
      await shoot(page, `claim-pending-${c.name}`);
      await box.getByRole('button', { name: 'Copy' }).click();
      await box.getByRole('button', { name: 'Copied ✓' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

      // The operator puts the code where only they can, and the owner asks again.
      game.set(c.game === 'minecraft' ? { ...answer, name: `Sunset RP ${code}` } : { ...answer, projectDesc: `Jobs, gangs ${code}` });
      await box.getByRole('button', { name: 'Check now' }).click();
      await expect.poll(() => box.getAttribute('data-claim'), { timeout: 15_000 }).toBe('verified');
      await box.getByText('Verified', { exact: true }).waitFor();
      expect(await box.textContent()).toContain('You may take the code out');
      expect(await page.getByTestId('live-status-line').textContent()).not.toContain('only you see this');
      await box.getByRole('button', { name: 'Check now' }).waitFor();
      await expectPublicPlayers(visitor.page, server.id, '5/20');
      await shoot(page, `claim-verified-${c.name}`);

      expectNoPageErrors(errors);
      expectNoPageErrors(visitor.errors);
      await visitor.context.close();
      await context.close();
    }
  });

  it('an admin sees a verified claim with what the game said and revokes it after confirming', async () => {
    const owner = await registerUser('server_owner');
    const serverName = uniqueName('Revoked RP');
    const server = await api<{ id: string }>('POST', '/api/servers', { name: serverName, statusMessage: 'Soon revoked' }, owner.token);
    const game = await fakeGame('minecraft', ADMIN_PORT, { players: 2, max: 10, name: 'Harbour RP' });
    const put = await api<GameStatus>(
      'PUT',
      `/api/servers/${server.id}/game`,
      { game: 'minecraft', host: '127.0.0.1', port: game.port },
      owner.token,
    );
    const code = put.claim!.code!;
    game.set({ players: 2, max: 10, name: `Harbour RP ${code}` });
    const checked = await api<GameStatus>('POST', `/api/servers/${server.id}/game/check`, undefined, owner.token);
    expect(checked.claim?.status).toBe('verified');

    for (const [viewport, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const { context, page, errors } = await newPage(browser, { viewport });
      await signIn(page, admin);
      await page.goto('/admin');
      const panel = page.getByTestId('admin-claims');
      await panel.scrollIntoViewIfNeeded();
      await panel.getByRole('button', { name: /^Verified \d+$/ }).click();
      const row = panel.getByTestId('admin-claim').filter({ hasText: serverName }).filter({ visible: true });
      await row.waitFor();
      expect(await row.textContent()).toContain(`Harbour RP ${code}`);
      expect(await row.getByTestId('claim-status').textContent()).toBe('verified');
      await shoot(page, `admin-claims-${name}`, page.locator('section[aria-labelledby="claims-heading"]'));

      if (viewport === DESKTOP) {
        await row.getByRole('button', { name: `Revoke the verification of ${serverName}` }).click();
        const dialog = page.getByRole('dialog', { name: 'Revoke this verification?' });
        await dialog.getByText(`127.0.0.1:${game.port}`).waitFor();
        await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
        await dialog.waitFor({ state: 'hidden' });
        await expect.poll(() => row.count()).toBe(0);
        await panel.getByRole('button', { name: /^Ended \d+$/ }).click();
        await row.getByText('Revoked by an admin').waitFor();
      }
      expectNoPageErrors(errors);
      await context.close();
    }

    // The listing must prove the address again, with a new code.
    const after = await api<GameStatus>('GET', `/api/servers/${server.id}/game`, undefined, owner.token);
    expect(after.claim?.status).toBe('pending');
    expect(after.claim?.code).not.toBe(code);
  });
});
