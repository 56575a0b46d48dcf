import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerUser, serverIdByName } from './api';
import { expectNoPageErrors, expectPath, launchBrowser, loginThroughForm, newPage } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const SERVER = 'Blaine County Nights';

describe('a player on a server page', () => {
  it('finds a server, joins it and likes it with a review; the buttons stay locked; it shows on /profile', async () => {
    const player = await registerUser('player');
    const { context, page, errors } = await newPage(browser);
    await loginThroughForm(page, player.username, player.password, '/profile');
    await page.getByTestId('joined-servers').waitFor({ state: 'detached' });
    await page.getByText('You have not joined a server yet.').waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search Servers' }).click();
    await page.getByLabel('Server name').fill('blaine county');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('search-results').getByRole('link', { name: SERVER }).click();
    await page.getByRole('heading', { level: 1, name: SERVER }).waitFor();

    const stat = async (label: string) =>
      label === 'Likes'
        ? Number((await page.getByTestId('likes-count').textContent())?.replace(/\D/g, ''))
        : Number(
            (await page.getByTestId('server-stats').getByText(label, { exact: true }).locator('+ dd').textContent())?.replace(/\D/g, ''),
          );
    const likesBefore = await stat('Likes');
    const joinsBefore = await stat('Total joins');

    const join = page.getByRole('button', { name: 'Join' });
    await join.click();
    await page.getByRole('status').filter({ hasText: 'You joined this server' }).waitFor();
    expect(await page.getByRole('button', { name: '✓ Joined' }).isDisabled()).toBe(true);
    await expect.poll(() => stat('Total joins')).toBe(joinsBefore + 1);

    const review = '<b>Great</b> trucking nights & friendly staff';
    const box = page.getByLabel(/Review \(optional/);
    await box.fill(review);
    expect(await page.getByText(`${review.length}/300`).count()).toBe(1);
    await page.getByRole('button', { name: 'Like', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'You liked this server' }).waitFor();
    expect(await page.getByRole('button', { name: 'Liked', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Dislike', exact: true }).isDisabled()).toBe(true);
    await expect.poll(() => stat('Likes')).toBe(likesBefore + 1);
    // The review is text, never HTML, and newest first.
    await expect.poll(() => page.getByTestId('reviews').getByRole('listitem').first().textContent()).toContain(review);

    await page.reload();
    await page.getByRole('heading', { level: 1, name: SERVER }).waitFor();
    expect(await page.getByRole('button', { name: '✓ Joined' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Liked', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Dislike', exact: true }).isDisabled()).toBe(true);

    await page.goto('/profile');
    await page.getByTestId('joined-servers').getByRole('link', { name: SERVER }).waitFor();
    expect(await page.getByText('Likes given', { exact: true }).locator('xpath=..').textContent()).toContain('1');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('asks a visitor to log in before joining or voting', async () => {
    const id = await serverIdByName(SERVER);
    const { context, page, errors } = await newPage(browser);
    await page.goto(`/servers/${id}`);
    await page.getByRole('button', { name: 'Like', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('You must be logged in to perform this action.');
    await page.getByRole('button', { name: 'Join' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('You must be logged in to perform this action.');
    const discord = page.getByRole('link', { name: /Join Discord/ });
    expect(await discord.getAttribute('target')).toBe('_blank');
    expect(await discord.getAttribute('rel')).toContain('noopener');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('shows the server’s own error when the vote was already cast elsewhere', async () => {
    const id = await serverIdByName(SERVER);
    const player = await registerUser('player');
    const { context, page, errors } = await newPage(browser);
    await loginThroughForm(page, player.username, player.password, '/profile');
    await page.goto(`/servers/${id}`);
    await page.getByRole('button', { name: 'Like', exact: true }).waitFor();
    // Another tab likes it after this page loaded.
    await api('POST', `/api/servers/${id}/like`, {}, player.token);
    await page.getByRole('button', { name: 'Like', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('You already liked this server.');
    expect(await page.getByRole('button', { name: 'Liked', exact: true }).isDisabled()).toBe(true);
    expectNoPageErrors(errors.filter((e) => !e.includes('409')));
    await context.close();
  });

  it('pages through reviews with Load more and opens the gallery-less page without errors', async () => {
    const id = await serverIdByName('Los Santos Legacy RP');
    const { context, page, errors } = await newPage(browser);
    await page.goto(`/servers/${id}`);
    const reviews = page.getByTestId('reviews').getByRole('listitem');
    await expect.poll(() => reviews.count()).toBe(10);
    const more = page.getByRole('button', { name: /Load more/ });
    if (await more.count()) {
      await more.click();
      await expect.poll(() => reviews.count()).toBeGreaterThan(10);
    }
    expectNoPageErrors(errors);
    await context.close();
  });

  it('shows a friendly state for a server that does not exist', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto('/servers/999999999');
    await page.getByText('Server not found').waitFor();
    await page.getByRole('link', { name: 'Search servers', exact: true }).click();
    await expectPath(page, '/search');
    expectNoPageErrors(errors);
    await context.close();
  });
});
