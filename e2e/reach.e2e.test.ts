import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, registerUser } from './api';
import { DESKTOP, PHONE, baseURL, expectNoPageErrors, launchBrowser, newPage, screenshot, signIn, uniqueName } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('an owner brings rewards, banners and the API to their server', () => {
  it('sets up a webhook, sees its secret once, sends a test vote and sees the delivery; copies the banner code; creates an API key that works', async () => {
    const owner = await registerUser('server_owner');
    const server = await api<{ id: string; name: string }>('POST', '/api/servers', { name: uniqueName('Reach RP') }, owner.token);
    const { context, page, errors } = await newPage(browser, { viewport: DESKTOP });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL() });
    await signIn(page, owner);
    await page.goto(`/dashboard/${server.id}`);

    const rewards = page.getByTestId('vote-rewards');
    // Targets are checked when saved: a loopback port the server is allowed to reach for tests.
    await rewards.getByLabel('Webhook URL').fill(`https://127.0.0.1:${inject('rewardPort')}/votes`);
    await rewards.getByRole('button', { name: 'Save webhook' }).click();
    const secret = await rewards.getByTestId('webhook-secret').textContent();
    expect(secret?.length).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'Send test vote' }).click();
    const log = rewards.getByTestId('reward-deliveries');
    await log.getByText('(test)').first().waitFor();
    // Nothing listens there: the delivery shows its status, tries and the reason.
    await expect
      .poll(() => log.locator('tbody tr').first().textContent(), { timeout: 20_000 })
      .toMatch(/Webhook.*(pending|failed|delivered)/);

    // Shown once, but not gone while the owner is still on the page to copy it.
    expect(await rewards.getByTestId('webhook-secret').textContent()).toBe(secret);

    const banner = page.getByTestId('banner-code');
    await banner.getByRole('button', { name: 'Copy BBCode' }).click();
    await banner.getByRole('button', { name: 'Copied ✓' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`[url=${baseURL()}/servers/${server.id}][img]${baseURL()}/servers/${server.id}/banner.png?size=468x60[/img][/url]`);
    await banner.getByRole('button', { name: '560 × 95' }).click();
    expect(await banner.getByTestId('banner-code-html').textContent()).toContain('banner.png?size=560x95');
    const image = await fetch(`${baseURL()}/servers/${server.id}/banner.png?size=560x95`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');

    const keys = page.getByTestId('api-keys');
    await keys.getByLabel('Key name').fill('Vote plugin');
    await keys.getByRole('button', { name: 'Create key' }).click();
    const key = (await keys.getByTestId('new-api-key').textContent())!.trim();
    expect(key).toMatch(/^rpk_/);
    await keys.getByRole('button', { name: 'Revoke Vote plugin' }).waitFor();
    const live = await fetch(`${baseURL()}/api/v1/server`, { headers: { authorization: `Bearer ${key}` } });
    expect(live.status).toBe(200);
    expect(((await live.json()) as { id: string }).id).toBe(server.id);
    await screenshot(page, 'dashboard-reach-desktop');

    await keys.getByRole('button', { name: 'Revoke Vote plugin' }).click();
    await keys.getByText('No keys yet.').waitFor();
    expect((await fetch(`${baseURL()}/api/v1/server`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    expectNoPageErrors(errors);
    await context.close();

    const phone = await newPage(browser, { viewport: PHONE });
    await signIn(phone.page, owner);
    await phone.page.goto(`/dashboard/${server.id}`);
    await phone.page.getByTestId('banner-code').waitFor();
    await screenshot(phone.page, 'dashboard-reach-phone');
    expectNoPageErrors(phone.errors);
    await phone.context.close();
  });
});
