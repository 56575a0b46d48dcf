import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, E2E_ADMIN } from './accounts';
import { baseURL, expectNoPageErrors, expectPath, launchBrowser, loginThroughForm, newPage, uniqueName } from './browser';
import { confirmTokenFor } from './outbox';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** `GET /api/user/servers` decides /dashboard vs /quick-create for owners; 404 means the server does not serve it yet. */
async function ownerServersEndpointExists(): Promise<boolean> {
  const res = await fetch(`${baseURL()}/api/user/servers`);
  return res.status !== 404;
}

describe('register and log in', () => {
  it('registers a player, asks for the e-mail, then opens /profile', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto('/register');
    await page.getByRole('button', { name: 'Register', exact: true }).last().click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('All fields are required');

    const username = uniqueName('player');
    const email = `${username}@e2e.test`;
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('player-password');
    await page.getByLabel('I am a…').selectOption('player');
    await page.locator('form').getByRole('button', { name: 'Register' }).click();
    await expectPath(page, '/update-email');

    await page.getByRole('button', { name: 'Save e-mail' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Email required');
    // A first address asks for no password: it is saved at once and the journey goes on.
    expect(await page.getByLabel('Current password').count()).toBe(0);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Save e-mail' }).click();
    await expectPath(page, '/profile');
    await expect
      .poll(() => page.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? 'null') as { email: string | null }).email))
      .toBe(email);
    // Until its link is opened the account may browse but not vote: the profile says so.
    await page.getByTestId('confirm-email-notice').getByText(email).waitFor();

    // Correcting a not yet confirmed address asks for the password, replaces it at once and mails a new link.
    const next = `${username}.next@e2e.test`;
    await page.goto('/update-email');
    await page.getByLabel('E-mail').fill(next);
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByRole('button', { name: 'Save e-mail' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Current password is incorrect');
    await page.getByLabel('Current password').fill('player-password');
    await page.getByRole('button', { name: 'Save e-mail' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('We sent you a link to confirm it.');
    await page.goto(`/login?confirm-email=${await confirmTokenFor(next)}`);
    await expectPath(page, '/profile');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByTestId('confirm-email-notice').count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? 'null') as { email: string | null }).email))
      .toBe(next);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    expectNoPageErrors(errors);
    await context.close();
  });

  it('registers an owner, asks for the e-mail, then opens /quick-create', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto('/register');
    const username = uniqueName('owner');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('owner-password');
    await page.getByLabel('I am a…').selectOption('server_owner');
    await page.locator('form').getByRole('button', { name: 'Register' }).click();
    await expectPath(page, '/update-email');
    await page.getByLabel('E-mail').fill(`${username}@e2e.test`);
    await page.getByRole('button', { name: 'Save e-mail' }).click();
    await expectPath(page, '/quick-create');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Create your server');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('lets a new player skip the e-mail step for now, saying what it is needed for', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto('/register');
    const username = uniqueName('skipper');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('skipper-password');
    await page.getByLabel('I am a…').selectOption('player');
    await page.locator('form').getByRole('button', { name: 'Register' }).click();
    await expectPath(page, '/update-email');
    await page.getByText('Joining, voting and reviews need a confirmed address.').waitFor();
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await expectPath(page, '/profile');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('shows the server’s error on a wrong password and "required" on empty fields', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('All fields are required');
    await page.getByLabel('Username').fill(DEMO.player);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid username or password');
    expect(new URL(page.url()).pathname).toBe('/login');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('sends demo_player to /profile', async () => {
    const { context, page, errors } = await newPage(browser);
    await loginThroughForm(page, DEMO.player, DEMO.password, '/profile');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('sends demo_owner, who owns servers, to /dashboard', async ({ skip }) => {
    if (!(await ownerServersEndpointExists())) skip('GET /api/user/servers is not served yet: owners go to /quick-create');
    const { context, page, errors } = await newPage(browser);
    await loginThroughForm(page, DEMO.owner, DEMO.password, '/dashboard');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('sends the admin to /admin', async () => {
    const { context, page, errors } = await newPage(browser);
    await loginThroughForm(page, E2E_ADMIN.username, E2E_ADMIN.password, '/admin');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('logs out: clears the session and goes to /login', async () => {
    const { context, page, errors } = await newPage(browser);
    await loginThroughForm(page, DEMO.player, DEMO.password, '/profile');
    await page.getByRole('button', { name: 'Logout' }).click();
    await expectPath(page, '/login');
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([null, null]);
    // The server ended the session: the refresh cookie no longer gets a token.
    await expect.poll(async () => (await context.request.post(`${baseURL()}/api/auth/refresh`)).status()).toBe(401);
    expectNoPageErrors(errors);
    await context.close();
  });

  it('renews an expired access token silently with the refresh cookie and carries on', async () => {
    const { context, page, errors } = await newPage(browser);
    await loginThroughForm(page, DEMO.player, DEMO.password, '/profile');
    const first = await page.evaluate(() => localStorage.getItem('token'));
    // What an access token past its two hours looks like to the server: refused.
    await page.evaluate(() => localStorage.setItem('token', 'an-expired-access-token'));
    const refreshed = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/auth/refresh');
    await page.reload();
    expect((await refreshed).status()).toBe(200);
    await expectPath(page, '/profile');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).not.toBe('an-expired-access-token');
    expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBe(first);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toContain(DEMO.player);
    expectNoPageErrors(errors);
    await context.close();
  });

  it('treats a stored token the server rejects as logged out', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/');
    await page.evaluate(() => {
      localStorage.setItem('token', 'not-a-valid-token');
      localStorage.setItem(
        'user',
        JSON.stringify({
          id: '1',
          username: 'ghost',
          role: 'player',
          email: 'g@e2e.test',
          subscriptionPlan: '',
          displayName: 'ghost',
          profilePicture: null,
        }),
      );
    });
    await page.goto('/profile');
    await expectPath(page, '/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await context.close();
  });

  it('sends every API request with no-cache, a t timestamp and the bearer token', async () => {
    const { context, page } = await newPage(browser);
    const seen: Array<{ url: URL; headers: Record<string, string> }> = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) seen.push({ url, headers: request.headers() });
    });
    await loginThroughForm(page, DEMO.player, DEMO.password, '/profile');
    const userResponse = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/user');
    await page.reload();
    await userResponse;
    expect(seen.length).toBeGreaterThan(1);
    for (const { url, headers } of seen) {
      expect(headers['cache-control'], url.pathname).toBe('no-cache');
      expect(Number(url.searchParams.get('t')), url.pathname).toBeGreaterThan(0);
    }
    const userCall = seen.find((r) => r.url.pathname === '/api/user');
    expect(userCall?.headers.authorization).toMatch(/^Bearer .+/);
    expect(seen.find((r) => r.url.pathname === '/api/login')?.headers.authorization).toBeUndefined();
    await context.close();
  });
});
