import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, premiumOwnerWithServer, registerUser } from './api';
import { expectNoPageErrors, expectPath, launchBrowser, loginThroughForm, newPage, signIn } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * Before the app loads: the permission reads 'default' until the app asks (then the granted
 * one), and each ask and push subscription attempt is counted in sessionStorage. Chromium cannot
 * reach its push service here, so the subscription itself is expected to fail quietly.
 */
function instrumentPush() {
  const real = Notification.requestPermission.bind(Notification);
  let asked = false;
  Object.defineProperty(Notification, 'permission', { get: () => (asked ? 'granted' : 'default'), configurable: true });
  Notification.requestPermission = async () => {
    asked = true;
    sessionStorage.setItem('asks', String(Number(sessionStorage.getItem('asks') ?? 0) + 1));
    return real();
  };
  const subscribe = PushManager.prototype.subscribe;
  PushManager.prototype.subscribe = function (options) {
    sessionStorage.setItem('subscribe-key', options?.applicationServerKey ? 'yes' : 'no');
    return subscribe.call(this, options);
  };
}

describe('push promotions', () => {
  it('a player allows notifications, an owner sends a promotion from /stats, the player’s inbox shows it', async () => {
    const owner = await premiumOwnerWithServer();
    const player = await registerUser('player');
    await api('POST', `/api/servers/${owner.serverId}/join`, undefined, player.token);

    // The player: asked once after login, with the permission granted in Chromium.
    const p = await newPage(browser, { serviceWorkers: 'allow' });
    await p.context.grantPermissions(['notifications']);
    await p.context.addInitScript(instrumentPush);
    await loginThroughForm(p.page, player.username, player.password, '/profile');
    await expect.poll(() => p.page.evaluate(() => sessionStorage.getItem('asks'))).toBe('1');
    expect(await p.page.evaluate(() => localStorage.getItem('rp.pushAsked'))).toBe('1');
    await expect.poll(() => p.page.evaluate(() => sessionStorage.getItem('subscribe-key')), { timeout: 15_000 }).toBe('yes');
    await p.page.reload();
    await p.page.getByRole('heading', { level: 1 }).waitFor();
    expect(await p.page.evaluate(() => sessionStorage.getItem('asks'))).toBe('1'); // not asked again
    await p.page.goto('/inbox');
    await p.page.getByText('No notifications yet').waitFor();

    // The owner: stats for 7 and 30 days, then a promotion.
    const o = await newPage(browser);
    await signIn(o.page, owner);
    await o.page.goto('/stats');
    const view = o.page.getByTestId('server-stats-view');
    await expect.poll(() => view.getAttribute('data-days')).toBe('7');
    for (const chart of ['views', 'joins', 'likes', 'dislikes', 'boosts'])
      await o.page.getByTestId(`chart-${chart}`).locator('svg').waitFor();
    expect(await o.page.getByTestId('chart-joins').locator('figcaption').textContent()).toContain('1 total');
    expect(await o.page.getByTestId('chart-views').locator('g[data-day]').count()).toBe(7);
    await o.page.getByRole('button', { name: '30 days' }).click();
    await expect.poll(() => view.getAttribute('data-days')).toBe('30');
    expect(await o.page.getByTestId('chart-views').locator('g[data-day]').count()).toBe(30);
    await expect.poll(() => o.page.getByTestId('pushes-left').textContent()).toBe('4 of 4 pushes left today');

    await o.page.getByLabel('Players online').fill('lots');
    await o.page.getByRole('button', { name: 'Send promotion' }).click();
    await expect.poll(() => o.page.getByRole('alert').textContent()).toBe('Player count must be a non-negative whole number');
    await o.page.getByLabel('Players online').fill('42');
    await o.page.getByLabel('This is an event').check();
    await o.page.getByLabel('Event name').fill('Bank heist night');
    await o.page.getByLabel('Event time').fill('Tonight 20:00');
    await o.page.getByRole('button', { name: 'Send promotion' }).click();
    await expect
      .poll(() => o.page.locator('form [role=status], form [role=alert]').allTextContents())
      // No device got the push (Chromium cannot reach its push service here); the inbox did.
      .toEqual(['Promotion sent (42 players online): pushed to 0 devices, and in the inbox of every player who joined. 3 left today.']);
    await expect.poll(() => o.page.getByTestId('pushes-left').textContent()).toBe('3 of 4 pushes left today');
    expectNoPageErrors(o.errors);
    await o.context.close();

    // The player's inbox: unread, with a link into the app; mark all read.
    await p.page.goto('/inbox');
    const item = p.page.getByTestId('inbox').getByRole('listitem').first();
    await item.filter({ hasText: `${owner.serverName}: Bank heist night` }).waitFor();
    expect(await item.textContent()).toContain('Bank heist night at Tonight 20:00. 42 players are on now.');
    expect(await item.getAttribute('data-unread')).toBe('true');
    await p.page.getByRole('button', { name: 'Mark all read' }).click();
    await expect.poll(() => item.getAttribute('data-unread')).toBe('false');
    await item.getByRole('link', { name: 'Open →' }).click();
    await expectPath(p.page, `/servers/${owner.serverId}`);
    await p.page.getByRole('heading', { name: owner.serverName }).first().waitFor();
    // Chromium itself logs that test contexts (incognito) have no Push API; the app only warns.
    expectNoPageErrors(p.errors.filter((e) => !e.includes('Push API in incognito mode')));
    await p.context.close();
  });

  it('shows an empty inbox to a visitor, and an owner without a plan is told promotions need one', async () => {
    const visitor = await newPage(browser);
    await visitor.page.goto('/inbox');
    await visitor.page.getByText('Log in to see your inbox').waitFor();
    expectNoPageErrors(visitor.errors);
    await visitor.context.close();

    const owner = await registerUser('server_owner');
    await api('POST', '/api/servers', { name: `No plan ${Date.now()}`, statusMessage: 'Hi' }, owner.token);
    const { context, page, errors } = await newPage(browser);
    await signIn(page, owner);
    await page.goto('/stats');
    await page.getByRole('note').filter({ hasText: 'Push promotions need the Pro or Premium plan.' }).waitFor();
    expect(await page.getByRole('button', { name: 'Send promotion' }).isDisabled()).toBe(true);
    expectNoPageErrors(errors);
    await context.close();
  });
});
