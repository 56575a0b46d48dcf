import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { DEMO, E2E_ADMIN } from './accounts';
import { api, apiLogin, premiumOwnerWithServer, registerUser, serverIdByName } from './api';
import { DESKTOP, launchBrowser, loginThroughForm, newPage, PHONE, screenshot, signIn, uniqueName } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

let token: string | undefined;

/** Screenshots for review at phone and desktop sizes (test-results/screenshots/). */
describe.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const)('screenshots on %s', (label, viewport) => {
  const mobile = label === 'phone' ? { isMobile: true, hasTouch: true } : {};

  it('landing, login and register', async () => {
    const { context, page } = await newPage(browser, { viewport, ...mobile });
    await page.goto('/');
    await page.getByTestId('player-count').waitFor();
    await page.waitForTimeout(1200); // let the count animation finish
    await screenshot(page, `landing-${label}`);
    await page.goto('/login');
    await page.getByLabel('Username').waitFor();
    await screenshot(page, `login-${label}`);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('dialog').waitFor();
    await screenshot(page, `reset-dialog-${label}`);
    await page.goto('/register');
    await page.getByLabel('Username').waitFor();
    await screenshot(page, `register-${label}`);
    await context.close();
  });

  it('a logged-in page', async () => {
    const { context, page } = await newPage(browser, { viewport, ...mobile });
    await loginThroughForm(page, DEMO.player, DEMO.password, '/profile');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `profile-${label}`);
    if (label === 'phone') {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await screenshot(page, `menu-open-${label}`);
    }
    await context.close();
  });

  it('the e-mail page: a first address, then changing it', async () => {
    const { context, page } = await newPage(browser, { viewport, ...mobile });
    const username = uniqueName('mail');
    const { token } = await api<{ token: string }>('POST', '/api/register', { username, password: 'mail-password', role: 'player' });
    await signIn(page, { token });
    await page.goto('/update-email');
    await page.getByLabel('E-mail').waitFor();
    await screenshot(page, `update-email-first-${label}`);
    await api('POST', '/api/users/update-email', { email: `${username}@e2e.test` }, token);
    await signIn(page, { token });
    await page.goto('/update-email');
    await page.getByLabel('Current password').waitFor();
    await screenshot(page, `update-email-change-${label}`);
    await context.close();
  });

  it('discovery pages: home, search, list and a server page', async () => {
    const { context, page } = await newPage(browser, { viewport, ...mobile });
    await page.goto('/home');
    await page.getByTestId('top-10').waitFor();
    await page.getByTestId('just-joined').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `home-${label}`);
    await page.goto('/search?filters=FiveM%20(GTA%20V)');
    await page.getByTestId('search-results').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `search-${label}`);
    await page.goto('/list');
    await page.getByTestId('ranked-list').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `list-${label}`);
    await page.goto(`/servers/${await serverIdByName('Los Santos Legacy RP')}`);
    await page.getByTestId('reviews').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `server-${label}`);
    await context.close();
  });

  it('owner dashboard', async () => {
    const { context, page } = await newPage(browser, { viewport, ...mobile });
    await loginThroughForm(page, DEMO.owner, DEMO.password, '/dashboard');
    await page.waitForURL((url) => /^\/dashboard\/\d+$/.test(url.pathname));
    await page.getByTestId('server-preview').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `dashboard-${label}`);
    await context.close();
  });

  it('payments, plans and the test checkout', async () => {
    // One API login for both sizes: logins are rate-limited per username.
    token ??= (await api<{ token: string }>('POST', '/api/login', { username: DEMO.owner, password: DEMO.password })).token;
    const [server] = await api<Array<{ id: string }>>('GET', '/api/user/servers', undefined, token);
    // One paid package so the history has a row; one open checkout to show.
    const paid = await api<{ url: string }>('POST', '/api/boost-session', { serverId: server!.id, amount: 25 }, token);
    await api('POST', `/api${paid.url}/complete`, undefined, token);
    const open = await api<{ url: string }>('POST', '/api/boost-session', { serverId: server!.id, amount: 200 }, token);

    const { context, page } = await newPage(browser, { viewport, ...mobile });
    await page.goto('/subscriptions');
    await page.getByTestId('plan-Premium').waitFor();
    await screenshot(page, `subscriptions-visitor-${label}`);
    await loginThroughForm(page, DEMO.owner, DEMO.password, '/dashboard');
    await page.goto('/payments');
    await page.getByRole('heading', { name: 'Payment history' }).waitFor();
    await page.getByText('Owner boost').locator('visible=true').first().waitFor();
    await page.getByTestId('next-weekend').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `payments-${label}`);
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('dialog').waitFor();
    await screenshot(page, `payments-cancel-dialog-${label}`);
    await page.goto('/subscriptions');
    await page.getByTestId('plan-Premium').waitFor();
    await screenshot(page, `subscriptions-owner-${label}`);
    await page.goto(open.url);
    await page.getByTestId('checkout-summary').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `checkout-${label}`);
    await page.goto(paid.url);
    await page.getByTestId('checkout-complete').waitFor();
    await screenshot(page, `checkout-complete-${label}`);
    await context.close();
  });
});

let playerToken: string | undefined;
let premium: Awaited<ReturnType<typeof premiumOwnerWithServer>> | undefined;
let adminSession: { token: string; user: Record<string, unknown> } | undefined;

/** The pages of notifications, stats, admin and testimonials, at both sizes. */
describe.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const)('screenshots of inbox, stats, admin and testimonials on %s', (label, viewport) => {
  const mobile = label === 'phone' ? { isMobile: true, hasTouch: true } : {};

  it('inbox, stats and testimonials', async () => {
    if (!premium) {
      premium = await premiumOwnerWithServer();
      for (const n of ['Two', 'Three'])
        await api('POST', '/api/servers', { name: `${premium.serverName} ${n}`, statusMessage: n }, premium.token);
      const player = await registerUser('player');
      await api('POST', `/api/servers/${premium.serverId}/join`, undefined, player.token);
      await api('POST', `/api/servers/${premium.serverId}/like`, { review: 'Great events' }, player.token);
      await api(
        'POST',
        '/api/notifications/send-mass',
        { serverId: premium.serverId, playerCount: 37, isEvent: true, eventName: 'Car meet', eventTime: 'Friday 21:00' },
        premium.token,
      );
      await api(
        'POST',
        '/api/testimonials',
        { content: 'Listing took two minutes and our Discord grew by a third in a month.' },
        premium.token,
      );
      playerToken = player.token;
    }
    const { context, page } = await newPage(browser, { viewport, ...mobile });
    await signIn(page, { token: playerToken! });
    await page.goto('/inbox');
    await page.getByTestId('inbox').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `inbox-${label}`);
    await signIn(page, premium);
    await page.goto('/stats');
    await page.getByTestId('chart-views').locator('svg').waitFor();
    await page.getByRole('button', { name: '30 days' }).click();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `stats-${label}`);
    await page.goto('/testimonials');
    await page.getByTestId('testimonials').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `testimonials-${label}`);
    await context.close();
  });

  it('admin dashboard and mass e-mail', async () => {
    adminSession ??= await apiLogin(E2E_ADMIN.username, E2E_ADMIN.password);
    const { context, page } = await newPage(browser, { viewport, ...mobile });
    await signIn(page, adminSession);
    await page.goto('/admin');
    await page.getByTestId('revenue-chart').waitFor();
    await page.getByTestId('admin-users').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `admin-${label}`);
    await page.goto('/admin/email');
    await page.getByLabel('Subject').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `admin-email-${label}`);
    await context.close();
  });
});
