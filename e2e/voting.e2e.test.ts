import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerUser, serverIdByName } from './api';
import { DESKTOP, PHONE, expectNoPageErrors, launchBrowser, newPage, screenshot, signIn, uniqueName } from './browser';
import { confirmTokenFor } from './outbox';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const SERVER = 'Blaine County Nights';

describe('votes from real people', () => {
  it('an unconfirmed account sees why it cannot vote, sends the link again, confirms from the mail and then votes', async () => {
    const username = uniqueName('unconfirmed');
    const email = `${username}@e2e.example.com`;
    const { token } = await api<{ token: string }>('POST', '/api/register', {
      username,
      password: 'player-password',
      role: 'player',
      email,
    });
    const id = await serverIdByName(SERVER);
    const { context, page, errors } = await newPage(browser, { viewport: PHONE });
    await signIn(page, { token });
    await page.goto(`/servers/${id}`);
    const notice = page.getByTestId('confirm-email-notice').first();
    await notice.getByText(email).waitFor();
    await page.getByRole('button', { name: 'Like', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Confirm your e-mail address to join, vote or review' }).waitFor();
    await notice.getByRole('button', { name: 'Send the link again' }).click();
    await notice.getByRole('status').filter({ hasText: 'We sent the confirmation link again.' }).waitFor();
    await screenshot(page, 'confirm-email-notice-phone');

    // The newest link from the mail, opened as a person would.
    await page.goto(`/login?confirm-email=${await confirmTokenFor(email)}`);
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
    await page.goto(`/servers/${id}`);
    await page.getByRole('heading', { level: 1, name: SERVER }).waitFor();
    expect(await page.getByTestId('confirm-email-notice').count()).toBe(0);
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'You joined this server' }).waitFor();
    await page.getByRole('button', { name: 'Like', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Thanks! You liked this server.' }).waitFor();

    // One review per account, edited in place; players who joined are badged and listed first.
    const own = page.getByTestId('own-review');
    await own.getByLabel('Add a review to your vote').fill('Joined for the trucking jobs, stayed for the people.');
    await own.getByRole('button', { name: 'Save review' }).click();
    await own.getByRole('status').filter({ hasText: 'Your review is updated.' }).waitFor();
    const mine = page.getByRole('listitem').filter({ hasText: 'Joined for the trucking jobs, stayed for the people.' });
    await mine.getByTestId('joined-badge').waitFor();
    expect(await mine.textContent()).toContain('edited');
    await screenshot(page, 'own-review-phone');
    expectNoPageErrors(errors.filter((e) => !e.includes('403')));
    await context.close();
  });

  it('a player votes daily with an in-game name and sees the month count and when to vote again; the page shows its rank', async () => {
    const player = await registerUser('player');
    const id = await serverIdByName(SERVER);
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page, errors } = await newPage(browser, { viewport });
      await signIn(page, player);
      await page.goto(`/servers/${id}`);
      await page.getByRole('heading', { level: 1, name: SERVER }).waitFor();
      await expect.poll(() => page.getByTestId('server-rank').textContent()).toMatch(/#\d[\d,]* of \d[\d,]* in Most Popular/);
      const card = page.getByTestId('daily-vote');
      if (viewport === DESKTOP) {
        const before = Number((await card.getByTestId('month-votes').textContent())!.replace(/\D/g, ''));
        await card.getByLabel('In-game name (optional, for rewards)').fill('Steve_01');
        await card.getByRole('button', { name: 'Vote', exact: true }).click();
        await card
          .getByRole('status')
          .filter({ hasText: /Thanks for voting! You can vote again in 23 h \d+ min/ })
          .waitFor();
        await expect.poll(async () => Number((await card.getByTestId('month-votes').textContent())!.replace(/\D/g, ''))).toBe(before + 1);
      } else {
        // Another device, same day: the vote is remembered, no button to press again.
        await card.getByRole('status').filter({ hasText: 'You can vote again in' }).waitFor();
        expect(await card.getByRole('button', { name: 'Vote', exact: true }).count()).toBe(0);
      }
      await screenshot(page, `daily-vote-${viewport === PHONE ? 'phone' : 'desktop'}`);
      expectNoPageErrors(errors);
      await context.close();
    }
  });

  it('a player follows a server from its page and finds it on /profile with its live status', async () => {
    const player = await registerUser('player');
    const id = await serverIdByName(SERVER);
    const { context, page, errors } = await newPage(browser, { viewport: PHONE });
    await signIn(page, player);
    await page.goto(`/servers/${id}`);
    const follow = page.getByTestId('follow');
    const before = Number((await follow.getByTestId('followers').textContent())!.replace(/\D/g, ''));
    await follow.getByRole('button', { name: '☆ Follow' }).click();
    await follow.getByRole('button', { name: '★ Following' }).waitFor();
    await expect.poll(async () => Number((await follow.getByTestId('followers').textContent())!.replace(/\D/g, ''))).toBe(before + 1);
    await page.goto('/profile');
    const followed = page.getByTestId('followed-servers');
    await followed.getByRole('link', { name: new RegExp(SERVER) }).waitFor();
    expect(await followed.textContent()).toMatch(/players|Offline|Not connected/);
    await screenshot(page, 'profile-followed-phone');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('cards in search results carry their rank', async () => {
    const { context, page, errors } = await newPage(browser, { viewport: DESKTOP });
    await page.goto('/search');
    await expect.poll(() => page.getByTestId('card-rank').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('card-rank').first().textContent()).toMatch(/^#\d+/);
    expectNoPageErrors(errors);
    await context.close();
  });
});
