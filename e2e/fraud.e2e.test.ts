import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN } from './accounts';
import { api, apiLogin, registerUser } from './api';
import { DESKTOP, expectNoPageErrors, launchBrowser, newPage, screenshot, signIn, uniqueName } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('fraud review', () => {
  it('an admin finds a bot cluster, voids it from the Fraud review and the ranking drops it', { timeout: 120_000 }, async () => {
    const owner = await registerUser('server_owner');
    const name = uniqueName('Botted Bay');
    const server = await api<{ id: string }>('POST', '/api/servers', { name }, owner.token);
    // Nine fresh accounts from one network like and join the server (the browser journeys run
    // without holds, so they count until an admin looks).
    for (let i = 0; i < 9; i++) {
      const bot = await registerUser('player');
      await api('POST', `/api/servers/${server.id}/like`, {}, bot.token);
      await api('POST', `/api/servers/${server.id}/join`, undefined, bot.token);
    }
    const likes = async () => (await api<{ likes: number; totalJoins: number }>('GET', `/api/servers/${server.id}`)).likes;
    expect(await likes()).toBe(9);

    const admin = await apiLogin(E2E_ADMIN.username, E2E_ADMIN.password);
    const { context, page, errors } = await newPage(browser, { viewport: DESKTOP });
    await signIn(page, admin);
    await page.goto('/admin');
    const suspect = page.getByTestId('fraud-suspect').filter({ hasText: name });
    await suspect.getByRole('button', { name: new RegExp(name) }).click();
    await suspect.getByTestId('fraud-evidence').locator('tbody tr').first().waitFor();
    expect(await suspect.getByTestId('fraud-evidence').locator('tbody tr').count()).toBe(18);
    await suspect.getByRole('button', { name: 'Select registered on this network' }).click();
    await suspect.getByLabel('Reason (kept with the action)').fill('Registration burst from one network');
    await screenshot(page, 'admin-fraud-desktop');
    await suspect.getByRole('button', { name: 'Void all from these accounts' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Voided 9 likes or dislikes, 9 joins and 0 daily votes; 1 server recounted' })
      .waitFor();
    expect(await likes()).toBe(0);
    expectNoPageErrors(errors);
    await context.close();
  });
});
