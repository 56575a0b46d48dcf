import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN } from './accounts';
import { api, apiLogin, registerUser, serverIdByName } from './api';
import { expectNoPageErrors, launchBrowser, newPage, signIn, uniqueName } from './browser';

let browser: Browser;
let admin: { token: string; user: Record<string, unknown> };
beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiLogin(E2E_ADMIN.username, E2E_ADMIN.password); // once: logins are rate-limited per username
});
afterAll(async () => {
  await browser?.close();
});

describe('admin dashboard', () => {
  it('shows stats and revenue after a purchase, toggles maintenance, handles a report and deletes a server', async () => {
    // A test purchase through the built-in checkout, and a server to delete.
    const owner = await registerUser('server_owner');
    const doomed = uniqueName('Doomed RP');
    const server = await api<{ id: string }>('POST', '/api/servers', { name: doomed, statusMessage: 'Soon gone' }, owner.token);
    const { url } = await api<{ url: string }>('POST', '/api/subscribe-session', { plan: 'Pro' }, owner.token);
    await api('POST', `/api${url}/complete`, undefined, owner.token);

    // A player reports the server from its page.
    const player = await registerUser('player');
    const p = await newPage(browser);
    await signIn(p.page, player);
    await p.page.goto(`/servers/${server.id}`);
    await p.page.getByRole('button', { name: 'Report server' }).click();
    const dialog = p.page.getByRole('dialog', { name: 'Report this server' });
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('Tell us what is wrong');
    await dialog.getByLabel('What is wrong?').fill('Spam in the description');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByText('Thanks, a moderator will look at it.').waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();

    const { context, page, errors } = await newPage(browser);
    await signIn(page, admin);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await expect.poll(() => page.getByTestId('admin-stats').getByTestId('stat-card').count()).toBe(8);
    const revenue = page.getByTestId('revenue');
    await revenue.waitFor();
    await page.getByRole('button', { name: 'Today' }).click();
    await expect
      .poll(async () => Number((await page.getByTestId('revenue-total').textContent())!.replace(/[$,]/g, '')))
      .toBeGreaterThanOrEqual(10);
    expect(await page.getByTestId('revenue-chart').locator('g[data-day]').count()).toBe(30);
    expect(await page.getByTestId('revenue-chart').locator('g[data-day] rect[fill="#a78bfa"]').count()).toBeGreaterThan(0); // subscriptions

    // Maintenance mode: the admin sees the banner; a player's write is refused and shows it too.
    const maintenance = page.getByRole('switch', { name: 'Maintenance mode' });
    expect(await maintenance.getAttribute('aria-checked')).toBe('false');
    await maintenance.click();
    await expect.poll(() => maintenance.getAttribute('aria-checked')).toBe('true');
    await page.getByTestId('maintenance-banner').waitFor();
    await p.page.goto(`/servers/${await serverIdByName('Los Santos Legacy RP')}`);
    await p.page.getByRole('button', { name: 'Join', exact: true }).click();
    await expect
      .poll(() => p.page.getByRole('alert').first().textContent())
      .toBe('The site is in maintenance mode. Please try again later.');
    await p.page.getByTestId('maintenance-banner').filter({ hasText: 'The site is in maintenance mode.' }).waitFor();
    await maintenance.click();
    await expect.poll(() => maintenance.getAttribute('aria-checked')).toBe('false');
    await page.getByTestId('maintenance-banner').waitFor({ state: 'hidden' });
    await p.page.getByRole('button', { name: 'Join', exact: true }).click();
    await p.page.getByRole('button', { name: '✓ Joined' }).waitFor();
    await p.page.getByTestId('maintenance-banner').waitFor({ state: 'hidden' });
    expectNoPageErrors(p.errors);
    await p.context.close();

    // The report is in the queue; dismissing it empties the queue entry.
    const report = page.getByTestId('reports').getByRole('listitem').filter({ hasText: doomed });
    await report.getByText('Spam in the description').waitFor();
    await report.getByRole('button', { name: 'Dismiss' }).click();
    await report.waitFor({ state: 'detached' });

    // Delete the server: asked first, then gone.
    const row = page.getByTestId('admin-servers').getByRole('listitem').filter({ hasText: doomed });
    await row.getByRole('button', { name: `Delete server ${doomed}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this server?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await row.getByRole('button', { name: `Delete server ${doomed}` }).click();
    await confirm.getByRole('button', { name: 'Delete server' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await fetch(new URL(`/api/servers/${server.id}`, page.url())).then((r) => r.status)).toBe(404);

    // Users: search finds the owner.
    await page.getByLabel('Search users').fill(owner.username);
    await page.getByTestId('admin-users').getByText(owner.username, { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('admin-users').getByRole('listitem').count()).toBe(1);
    // …and deletes them, after confirming.
    await page.getByRole('button', { name: `Delete user ${owner.username}` }).click();
    await page.getByRole('dialog', { name: 'Delete this user?' }).getByRole('button', { name: 'Delete user' }).click();
    await page.getByText('No users match').waitFor();
    expectNoPageErrors(errors);
    await context.close();
  });

  it('sends a mass e-mail and follows its progress to done', async () => {
    const { context, page, errors } = await newPage(browser);
    await signIn(page, admin);
    await page.goto('/admin/email');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Subject is required');
    await page.getByLabel('Send to').selectOption('owners');
    await page.getByLabel('Subject').fill('Spring update');
    await page.getByLabel('Content').fill('New filters and faster pages. Thanks for running your servers with us!');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const progress = page.getByTestId('campaign-progress');
    await expect.poll(() => progress.getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
    expect(await progress.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(await progress.textContent()).toMatch(/\d+ sent · \d+ skipped · 0 failed of \d+/);
    await page.getByTestId('campaigns').getByText('Spring update').first().waitFor();
    expectNoPageErrors(errors);
    await context.close();
  });
});
