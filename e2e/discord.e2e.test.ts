import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { snowflake, startFakeDiscord, type FakeDiscordUser } from '../test/helpers/fake-discord';
import { DISCORD_ERRORS, DISCORD_MSG } from '../src/shared/discord';
import { MSG } from '../src/shared/messages';
import { DEMO, E2E_DISCORD } from './accounts';
import { registerUser, serverIdByName, signInWithToken } from './api';
import { DESKTOP, PHONE, SCREENSHOT_DIR, expectNoPageErrors, expectPath, launchBrowser, newPage, screenshot, uniqueName } from './browser';

const DAY = 86_400_000;
const SIZES = [
  { viewport: PHONE, size: 'phone' },
  { viewport: DESKTOP, size: 'desktop' },
] as const;

let browser: Browser;
let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
beforeAll(async () => {
  browser = await launchBrowser();
  // The e2e server was started knowing this port as Discord (global setup).
  discord = await startFakeDiscord({ ...E2E_DISCORD, port: inject('discordPort') });
});
afterAll(async () => {
  await browser?.close();
  await discord?.close();
});

/** A Discord account over a year old with a verified address: its e-mail counts as confirmed here at once. */
function oldAccount(prefix: string, displayName: string): FakeDiscordUser {
  const username = uniqueName(prefix).toLowerCase();
  return { id: snowflake(400 * DAY), username, global_name: displayName, email: `${username}@e2e.example.com`, verified: true };
}

type StoredUser = { username: string; discord: { username: string } | null; hasPassword: boolean } | null;
const storedUser = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as StoredUser);

/** Logout from the navigation (behind the menu button on a phone). */
async function logout(page: Page, size: 'phone' | 'desktop'): Promise<void> {
  if (size === 'phone') await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expectPath(page, '/login');
}

/**
 * The whole page from its top (so the sticky bar sits where it belongs), and `part` on its own
 * when given: on a phone the profile's Discord card is far down the page.
 */
async function shoot(page: Page, name: string, part?: Locator): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
  if (!part) return;
  const box = await part.boundingBox();
  expect(box, `${name}: the part to shoot is on the page`).not.toBeNull();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-part.png`, fullPage: true, clip: box! });
}

describe('sign in with Discord', () => {
  it('a new player continues with Discord on /register, picks a username, and votes at once', async () => {
    const serverId = await serverIdByName('Blaine County Nights');
    for (const { viewport, size } of SIZES) {
      const account = oldAccount('dcnew', size === 'phone' ? 'Nova Rider' : 'Kit Mercer');
      discord.signInAs(account);
      const { context, page, errors } = await newPage(browser, { viewport });
      await page.goto('/register');
      const start = page.getByRole('button', { name: 'Continue with Discord' });
      await start.waitFor();
      await shoot(page, `discord-register-${size}`);
      await start.click();

      // Back from Discord with a sign-up waiting for its username: the Discord name and its e-mail are shown.
      await page.getByRole('heading', { level: 1, name: 'Finish signing up with Discord' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/register');
      await page.getByText(account.global_name!, { exact: true }).waitFor();
      await page.getByTestId('discord-email-confirmed').getByText(account.email!).waitFor();
      const username = page.getByLabel('Username');
      expect(await username.inputValue()).toMatch(size === 'phone' ? /^Nova_Rider/ : /^Kit_Mercer/);

      // A name someone has already: said on the field, and the person picks another.
      await username.fill(DEMO.player);
      await page.getByLabel('I am a…').selectOption('player');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('alert').filter({ hasText: MSG.usernameTaken }).waitFor();
      expect(await username.getAttribute('aria-invalid')).toBe('true');
      const chosen = uniqueName('dc');
      await username.fill(chosen);
      expect(await page.getByRole('alert').count()).toBe(0);
      await shoot(page, `discord-signup-${size}`);
      await page.getByRole('button', { name: 'Create account' }).click();

      // Signed in as the new player, whose e-mail Discord vouched for.
      await expectPath(page, '/profile');
      await expect.poll(async () => (await storedUser(page))?.username).toBe(chosen);
      expect(await storedUser(page)).toMatchObject({ discord: { username: account.global_name }, hasPassword: false });
      const card = page.getByTestId('discord-card');
      await card.getByTestId('discord-name').filter({ hasText: account.global_name! }).waitFor();
      expect(await card.getByRole('button', { name: 'Unlink' }).isDisabled()).toBe(true);
      await card.getByText(DISCORD_MSG.lastWayIn).waitFor();
      expect(await page.getByTestId('confirm-email-notice').count()).toBe(0);
      await shoot(page, `discord-profile-new-${size}`, card);

      if (size === 'desktop') {
        // A first password: then Discord is no longer the only way in, and it may be unlinked.
        await card.getByLabel('New password', { exact: true }).fill('discord-made-password');
        await card.getByLabel('Confirm new password').fill('discord-made-password');
        await card.getByRole('button', { name: 'Set password' }).click();
        await card.getByRole('status').filter({ hasText: DISCORD_MSG.passwordSet }).waitFor();
        expect(await storedUser(page)).toMatchObject({ hasPassword: true });
        await card.getByRole('button', { name: 'Unlink' }).click();
        await card.getByRole('status').filter({ hasText: DISCORD_MSG.unlinked }).waitFor();
        await card.getByRole('button', { name: 'Link Discord' }).waitFor();
      }

      // The vote needs a confirmed address: this account has one from the start.
      await page.goto(`/servers/${serverId}`);
      const vote = page.getByTestId('daily-vote');
      await vote.getByRole('button', { name: 'Vote', exact: true }).click();
      await vote
        .getByRole('status')
        .filter({ hasText: /Thanks for voting!/ })
        .waitFor();
      expectNoPageErrors(errors);
      await context.close();
    }
  });

  it('a password user links Discord on /profile, logs out, and signs in again with Discord', async () => {
    for (const { viewport, size } of SIZES) {
      const player = await registerUser('player');
      const account = oldAccount('dclink', size === 'phone' ? 'Ash Linker' : 'Rue Linker');
      discord.signInAs(account);
      const { context, page, errors } = await newPage(browser, { viewport });
      await signInWithToken(page, player.token, '/profile');
      const card = page.getByTestId('discord-card');
      // Linking adds a way in for good: the current password first.
      expect(await card.getByRole('button', { name: 'Link Discord' }).isDisabled()).toBe(true);
      await card.getByLabel('Current password').fill(player.password);
      await card.getByRole('button', { name: 'Link Discord' }).click();

      // Back on the profile from Discord: linked, and it says so.
      await card.getByRole('status').filter({ hasText: 'Discord linked' }).waitFor({ timeout: 20_000 });
      await card.getByTestId('discord-name').filter({ hasText: account.global_name! }).waitFor();
      expect(new URL(page.url()).search).toBe('');
      expect(await card.getByRole('button', { name: 'Unlink' }).isEnabled()).toBe(true);
      await shoot(page, `discord-profile-linked-${size}`, card);

      await logout(page, size);
      const start = page.getByRole('button', { name: 'Continue with Discord' });
      await start.waitFor();
      await shoot(page, `discord-login-${size}`);
      // The session is taken up with a refresh; held a moment so "Signing you in…" can be seen.
      await page.route(
        (url) => url.pathname === '/api/auth/refresh',
        async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 700));
          await route.continue();
        },
      );
      await start.click();
      await page.getByRole('heading', { level: 1, name: 'Signing you in…' }).waitFor();
      await shoot(page, `discord-signing-in-${size}`);

      // The password login's landing for a player: the profile, as that same user.
      await expectPath(page, '/profile');
      await expect.poll(async () => (await storedUser(page))?.username).toBe(player.username);
      await page.getByRole('heading', { level: 1 }).filter({ hasText: player.username }).waitFor();
      expectNoPageErrors(errors);
      await context.close();
    }
  });

  it('says why a return from Discord signed nobody in', async () => {
    const { context, page, errors } = await newPage(browser, { viewport: PHONE });
    // The person says no on Discord's consent screen.
    discord.behave('deny');
    discord.signInAs(oldAccount('dcdeny', 'Nope'));
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Discord' }).click();
    await page.getByRole('alert').filter({ hasText: DISCORD_ERRORS.denied }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    discord.behave('normal');

    // A code this app does not know still gets a message.
    await page.goto('/login?discordError=something-new');
    await page.getByRole('alert').filter({ hasText: 'Signing in with Discord did not work. Please try again.' }).waitFor();

    // A sign-up link that expired offers to start again.
    await page.goto(`/register?discord=${'x'.repeat(32)}`);
    await page.getByRole('alert').filter({ hasText: DISCORD_MSG.signupExpired }).waitFor();
    await page.getByRole('button', { name: 'Continue with Discord' }).waitFor();
    await shoot(page, 'discord-signup-expired-phone');
    expectNoPageErrors(errors);
    await context.close();
  });
});
