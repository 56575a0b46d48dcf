import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseURL, expectNoPageErrors, expectPath, launchBrowser, newPage, uniqueName } from './browser';
import { confirmTokenFor } from './outbox';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function api(pathname: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseURL()}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  expect(res.ok, `${pathname} answered ${res.status}`).toBe(true);
  return (await res.json()) as Record<string, unknown>;
}

/** The reset code from the newest .eml to `to` in the outbox (quoted-printable: undo soft breaks and =XX first). */
async function resetCodeFor(to: string): Promise<string> {
  const outbox = path.join(inject('dataDir'), 'outbox');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')) : [];
    for (const file of files) {
      const raw = fs.readFileSync(path.join(outbox, file), 'utf8');
      if (!raw.includes(to)) continue;
      const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      const code = /Reset Password dialog: ([A-Za-z0-9_-]+)/.exec(text)?.[1];
      if (code) return code;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no reset e-mail to ${to} in ${outbox}`);
}

describe('reset password', () => {
  it('resets through the dialog with the mailed code, then logs in with the new password', async () => {
    const username = uniqueName('forgetful');
    const email = `${username}@e2e.test`;
    const { token } = await api('/api/register', { username, password: 'old-password-1', role: 'player' });
    await api('/api/users/update-email', { email, currentPassword: 'old-password-1' }, token as string);
    await api('/api/users/confirm-email', { token: await confirmTokenFor(email) });

    const { context, page, errors } = await newPage(browser);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset Password' });
    await dialog.getByLabel('Username').fill(username);
    await dialog.getByRole('button', { name: 'Send reset code' }).click();
    await dialog.getByLabel('Reset code').waitFor();

    const code = await resetCodeFor(email);
    await dialog.getByLabel('Reset code').fill(code);
    await dialog.getByLabel('New password', { exact: true }).fill('new-password-2');
    await dialog.getByLabel('Confirm new password').fill('something-else');
    await dialog.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe("Passwords don't match.");

    await dialog.getByLabel('Confirm new password').fill('new-password-2');
    await dialog.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Password updated' }).count()).toBe(1);
    expect(await dialog.isVisible()).toBe(false);

    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill('new-password-2');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectPath(page, '/profile');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('opens the dialog at the code step when the mailed link is followed', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto('/login?reset=abc123');
    const dialog = page.getByRole('dialog', { name: 'Reset Password' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Reset code').inputValue()).toBe('abc123');
    await dialog.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('All fields are required.');
    expectNoPageErrors(errors);
    await context.close();
  });
});
