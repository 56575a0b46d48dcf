import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerUser } from './api';
import { expectNoPageErrors, launchBrowser, newPage, signIn, uniqueName } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('testimonials', () => {
  it('an owner submits one testimonial and sees it on /testimonials and /subscriptions', async () => {
    const owner = await registerUser('server_owner');
    const serverName = uniqueName('Happy RP');
    await api('POST', '/api/servers', { name: serverName, statusMessage: 'Glad to be here' }, owner.token);
    const { context, page, errors } = await newPage(browser);
    await signIn(page, owner);
    await page.goto('/testimonials');
    const field = page.getByLabel('Your testimonial');
    await field.fill('   ');
    await page.getByRole('button', { name: 'Submit testimonial' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Testimonial cannot be empty.');
    const text = `Our player count doubled in a month. ${serverName}`;
    await field.fill(text);
    await page.getByRole('button', { name: 'Submit testimonial' }).click();
    await page.getByText('Thank you! Your testimonial is published.').waitFor();
    await page.getByTestId('testimonials').getByText(text).waitFor();
    expect(await page.getByLabel('Your testimonial').count()).toBe(0); // one per owner: the form is gone

    // A second one through the API is refused with 409; the page would say so in the words of MSG.
    const res = await fetch(new URL('/api/testimonials', page.url()), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ content: 'Again' }),
    });
    expect(res.status).toBe(409);

    await page.goto('/subscriptions');
    const section = page.getByRole('region', { name: 'What owners say' });
    await section.getByText(text).waitFor();
    expect(await section.textContent()).toContain(serverName);
    expectNoPageErrors(errors);
    await context.close();
  });
});
