import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerUser, serverIdByName, signInWithToken } from './api';
import {
  DESKTOP,
  PHONE,
  expectNoPageErrors,
  expectPath,
  launchBrowser,
  loginThroughForm,
  newPage,
  screenshot,
  uniqueName,
} from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A new owner with one (free) server, logged in through the form on the dashboard. */
async function ownerWithServer(page: Page): Promise<{ serverId: string; serverName: string }> {
  const owner = await registerUser('server_owner');
  const serverName = uniqueName('Paid RP');
  const server = await api<{ id: string }>('POST', '/api/servers', { name: serverName, statusMessage: 'Open for business' }, owner.token);
  await loginThroughForm(page, owner.username, owner.password, '/dashboard');
  await page.waitForURL((url) => /^\/dashboard\/\d+$/.test(url.pathname));
  return { serverId: server.id, serverName };
}

/** On the built-in checkout: checks the notice and the amount, then presses Pay or Cancel. */
async function checkout(page: Page, amount: string, action: 'Pay' | 'Cancel'): Promise<void> {
  await page.waitForURL((url) => url.pathname.startsWith('/checkout/'), { timeout: 15_000 });
  await page.getByTestId('test-checkout-notice').waitFor();
  expect(await page.getByTestId('checkout-amount').textContent()).toBe(amount);
  await page.getByRole('button', { name: action === 'Pay' ? `Pay ${amount}` : 'Cancel', exact: true }).click();
}

const planOnPaymentsPage = (page: Page) => page.getByTestId('plan-badge').textContent();

describe('owner purchases through the built-in checkout', () => {
  it('subscribes from /payments without leaving it: a plan is required, then checkout comes back with it', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page, errors } = await newPage(browser, { viewport });
      await ownerWithServer(page);
      await page.goto('/payments');
      const form = page.getByTestId('subscribe-form');
      await form.getByRole('button', { name: 'Subscribe' }).click();
      await expect.poll(() => form.getByRole('alert').textContent()).toBe('Please select a plan');
      await form.getByRole('radio', { name: /Premium/ }).check();
      await screenshot(page, `payments-subscribe-${viewport === PHONE ? 'phone' : 'desktop'}`);
      await form.getByRole('button', { name: 'Subscribe' }).click();
      await checkout(page, '$25', 'Pay');
      await expectPath(page, '/payments');
      await expect.poll(() => planOnPaymentsPage(page)).toContain('Premium');
      // The plan it has is not offered again; the other one is, to switch.
      // Polled: the form re-renders once the new plan has reached it.
      await expect.poll(() => page.getByTestId('subscribe-form').getByRole('radio').count()).toBe(1);
      expect(await page.getByTestId('subscribe-form').textContent()).toContain('Pro');
      expectNoPageErrors(errors);
      await context.close();
    }
  });

  it('subscribes to Pro, buys boosts, books a weekend, cancels a checkout and the subscription', async () => {
    const { context, page, errors } = await newPage(browser);
    const { serverId, serverName } = await ownerWithServer(page);
    await page.getByRole('note').filter({ hasText: 'Pro or Premium' }).waitFor();

    // (1) Pro from /subscriptions → checkout → Pay → /payments shows Pro.
    await page.goto('/subscriptions');
    await page.getByRole('button', { name: 'Subscribe to Pro' }).click();
    await checkout(page, '$10', 'Pay');
    await expectPath(page, '/payments');
    await page.getByTestId('checkout-success').filter({ hasText: 'Your new plan is active.' }).waitFor();
    await expect.poll(() => planOnPaymentsPage(page)).toBe('Pro');
    expect(new URL(page.url()).search).toBe(''); // the parameter is dropped: a reload does not announce it again
    await page.goto('/dashboard');
    await page.waitForURL((url) => /^\/dashboard\/\d+$/.test(url.pathname));
    await page.getByLabel('Server name').waitFor();
    expect(await page.getByTestId('plan-badge').textContent()).toBe('Pro');
    expect(await page.getByRole('note').count()).toBe(0);
    await page.goto('/subscriptions');
    expect(await page.getByRole('button', { name: 'Pro is your current plan' }).isDisabled()).toBe(true);

    // (2) A 10-boost package on /payments → the server tops Hot, the payment is in the history.
    await page.goto('/payments');
    await page.getByRole('button', { name: 'Buy boosts' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Select a boost package');
    await page
      .locator('label')
      .filter({ hasText: /^10 boosts/ })
      .click();
    await page.getByRole('button', { name: 'Buy for $5' }).click();
    await checkout(page, '$5', 'Pay');
    await expectPath(page, '/payments');
    await page.getByTestId('checkout-success').waitFor();
    const history = page.getByTestId('payment-history');
    await expect.poll(() => history.getByRole('row').count()).toBe(3); // header, boost, subscription
    expect(await history.getByRole('row').nth(1).textContent()).toContain('Owner boost');
    expect(await history.getByRole('row').nth(1).textContent()).toContain(serverName);
    expect(await history.getByRole('row').nth(1).textContent()).toContain('$5');
    expect(await history.getByRole('row').nth(2).textContent()).toContain('Subscription');
    await page.goto('/list');
    await expect.poll(() => page.getByTestId('ranked-list').getByRole('listitem').first().textContent()).toContain(serverName);

    // (3) Server of the Weekend: the page names the weekend; the confirmation and /home agree.
    await page.goto('/payments');
    const weekend = (await page.getByTestId('next-weekend').locator('p').nth(1).textContent())!;
    expect(weekend).toMatch(/^Fri, .+ – .*Sun, .+ \d{4}$/);
    await page.getByRole('button', { name: 'Book for $100' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/checkout/'));
    await page.getByText(weekend, { exact: true }).waitFor();
    await checkout(page, '$100', 'Pay');
    await expectPath(page, '/payments');
    await page
      .getByTestId('checkout-success')
      .filter({ hasText: `${serverName} is Server of the Weekend on ${weekend}` })
      .waitFor();
    await page.goto('/home');
    // Between weekends /home features the coming weekend: this booking. While a weekend runs
    // (Friday to Sunday, UTC) it features that one, and a booking made then is for the next.
    if (![5, 6, 0].includes(new Date().getUTCDay())) {
      await page.getByTestId('weekend-card').filter({ hasText: serverName }).waitFor();
      expect(await page.getByTestId('weekend-card').getByRole('link', { name: 'View server' }).getAttribute('href')).toBe(
        `/servers/${serverId}`,
      );
    } else {
      await page.getByTestId('weekend-card').or(page.getByText('No Server of the Weekend yet')).waitFor();
      expect(await page.getByTestId('weekend-card').filter({ hasText: serverName }).count()).toBe(0);
    }

    // Cancel on the checkout page: back with nothing bought.
    await page.goto('/subscriptions');
    await page.getByRole('button', { name: 'Subscribe to Premium' }).click();
    await checkout(page, '$25', 'Cancel');
    await expectPath(page, '/payments');
    await page.getByTestId('checkout-canceled').waitFor();
    await expect.poll(() => planOnPaymentsPage(page)).toBe('Pro');
    await expect.poll(() => page.getByTestId('payment-history').getByRole('row').count()).toBe(4); // header + 3 payments

    // Cancelling the subscription asks first; then the plan is none, on the page and in the stored user.
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel your subscription?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Keep Pro' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await planOnPaymentsPage(page)).toBe('Pro');
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await dialog.getByRole('button', { name: 'Yes, cancel' }).click();
    await page.getByRole('status').filter({ hasText: 'Your subscription is cancelled.' }).waitFor();
    await expect.poll(() => planOnPaymentsPage(page)).toBe('No plan');
    const stored = await page.evaluate(() => Object.values(localStorage).find((v) => v.includes('subscriptionPlan')) ?? '');
    expect(JSON.parse(stored)).toMatchObject({ subscriptionPlan: '' });
    await page.goto('/dashboard');
    await page.getByRole('note').filter({ hasText: 'Pro or Premium' }).waitFor();
    expectNoPageErrors(errors);
    await context.close();
  });

  it('shows Premium prices 25 % off with the full price struck through', async () => {
    // A Premium owner of three servers, made through the API and the test checkout (demo_owner's
    // logins are rate-limited per username, and other files log it in).
    const owner = await registerUser('server_owner');
    const first = await api<{ id: string }>('POST', '/api/servers', { name: uniqueName('Premium RP'), statusMessage: 'One' }, owner.token);
    const { url } = await api<{ url: string }>('POST', '/api/subscribe-session', { plan: 'Premium' }, owner.token);
    await api('POST', `/api${url}/complete`, undefined, owner.token);
    for (const n of ['Two', 'Three'])
      await api('POST', '/api/servers', { name: uniqueName(`Premium RP ${n}`), statusMessage: n }, owner.token);

    const { context, page, errors } = await newPage(browser);
    await signInWithToken(page, owner.token, '/payments');
    await expect.poll(() => planOnPaymentsPage(page)).toBe('★ Premium');
    const pack = page.locator('label').filter({ hasText: '1,000 boosts' });
    expect(await pack.textContent()).toContain('$75');
    expect(await pack.locator('s').textContent()).toBe('was $100');
    // Three servers: a server has to be picked.
    await page
      .locator('label')
      .filter({ hasText: /^10 boosts/ })
      .click();
    await page.getByRole('button', { name: 'Buy for $3.75' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Select a server to boost');
    await page.getByLabel('Server to boost').selectOption(first.id);
    await page.getByRole('button', { name: 'Buy for $3.75' }).click();
    await checkout(page, '$3.75', 'Pay');
    await expectPath(page, '/payments');
    await expect.poll(() => page.getByTestId('payment-history').getByRole('row').nth(1).textContent()).toContain('$3.75');
    expectNoPageErrors(errors);
    await context.close();
  });
});

describe('Premium boost credits', () => {
  it('shows a new server’s 100 credits on the dashboard and /payments and spends them before paying', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const owner = await registerUser('server_owner');
      const { url } = await api<{ url: string }>('POST', '/api/subscribe-session', { plan: 'Premium' }, owner.token);
      await api('POST', `/api${url}/complete`, undefined, owner.token);
      const name = uniqueName('Credit RP');
      const server = await api<{ id: string }>('POST', '/api/servers', { name, statusMessage: 'Credits' }, owner.token);

      const { context, page, errors } = await newPage(browser, { viewport });
      await signInWithToken(page, owner.token, '/dashboard');
      await page.waitForURL((u) => u.pathname === `/dashboard/${server.id}`);
      const note = page.getByTestId('dashboard-boost-credits');
      await expect.poll(() => note.textContent()).toContain('100 boost credits');
      await screenshot(page, `dashboard-boost-credits-${viewport === PHONE ? 'phone' : 'desktop'}`);
      await note.getByRole('link', { name: 'Spend credits' }).click();
      await expectPath(page, '/payments');

      const balance = page.getByTestId('boost-credit-balance');
      await expect.poll(() => balance.textContent()).toContain('100 boost credits on this server');
      // Packages the balance covers say so; a bigger one is still paid for.
      expect(
        await page
          .locator('label')
          .filter({ hasText: /^25 boosts/ })
          .textContent(),
      ).toContain('Covered by credits');
      expect(
        await page
          .locator('label')
          .filter({ hasText: /^200 boosts/ })
          .textContent(),
      ).not.toContain('Covered by credits');
      await page
        .locator('label')
        .filter({ hasText: /^25 boosts/ })
        .click();
      await page.getByRole('button', { name: 'Pay $7.50 instead' }).waitFor();
      if (viewport === PHONE) await screenshot(page, 'boost-credits-phone');
      await page.getByRole('button', { name: 'Use 25 credits' }).click();
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'boosts added' }).textContent())
        .toBe(`25 boosts added to ${name}. 75 credits left.`);
      await expect.poll(() => balance.textContent()).toContain('75 boost credits on this server');
      expect((await api<{ totalBoosts: number }>('GET', `/api/servers/${server.id}`)).totalBoosts).toBe(25);
      // No money moved: the owner's payments are the subscription alone.
      const payments = await api<Array<{ type: string }>>('GET', '/api/user/payments', undefined, owner.token);
      expect(payments.map((p) => p.type)).toEqual(['subscription']);

      await page
        .locator('label')
        .filter({ hasText: /^200 boosts/ })
        .click();
      await page.getByRole('button', { name: 'Buy for $37.50' }).waitFor();
      expect(await page.getByRole('button', { name: /credits/ }).count()).toBe(0);
      if (viewport === DESKTOP) await screenshot(page, 'boost-credits-desktop');
      expectNoPageErrors(errors);
      await context.close();
    }
  });
});

describe('player boost from the server page', () => {
  it('a visitor is asked to log in; a player pays $2 and the boost counts', async () => {
    const id = await serverIdByName('Los Santos Legacy RP');
    const visitor = await newPage(browser);
    await visitor.page.goto(`/servers/${id}`);
    await visitor.page.getByRole('button', { name: 'Boost for $2' }).click();
    await expect.poll(() => visitor.page.getByRole('alert').textContent()).toBe('You must be logged in to perform this action.');
    expectNoPageErrors(visitor.errors);
    await visitor.context.close();

    const player = await registerUser('player');
    const { context, page, errors } = await newPage(browser);
    await loginThroughForm(page, player.username, player.password, '/profile');
    await page.goto(`/servers/${id}`);
    const totalBoosts = page.getByTestId('server-stats').locator('div').filter({ hasText: 'Total boosts' }).locator('dd');
    const before = Number(await totalBoosts.textContent());
    await page.getByRole('button', { name: 'Boost for $2' }).click();
    await checkout(page, '$2', 'Pay');
    await expectPath(page, `/servers/${id}`);
    await page.getByTestId('checkout-success').waitFor();
    await expect.poll(async () => Number(await totalBoosts.textContent())).toBe(before + 1);
    expectNoPageErrors(errors);
    await context.close();
  });

  it('owners do not see the boost button, and an unknown checkout says so', async () => {
    const owner = await registerUser('server_owner');
    const { context, page, errors } = await newPage(browser);
    await loginThroughForm(page, owner.username, owner.password, '/quick-create');
    await page.goto(`/servers/${await serverIdByName('Los Santos Legacy RP')}`);
    await page.getByRole('heading', { name: 'Play, vote and review' }).waitFor();
    expect(await page.getByRole('button', { name: 'Boost for $2' }).count()).toBe(0);
    await page.goto('/checkout/999999');
    await page.getByText('Checkout not found').waitFor();
    expectNoPageErrors(errors);
    await context.close();
  });
});
