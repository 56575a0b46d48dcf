import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './api';
import { DESKTOP, expectNoPageErrors, expectPath, launchBrowser, newPage, PHONE, screenshot } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const SEARCH_NAME = 'NoPixel Inspired: Eclipse City';

describe('home', () => {
  it('shows the just-joined and top-10 carousels, looping and pausing on hover and focus', async () => {
    const { context, page, errors } = await newPage(browser);
    const top = await api<Array<{ name: string }>>('GET', '/api/servers?sort=likes&limit=10');
    await page.goto('/home');
    expect(await page.getByRole('link', { name: 'Search', exact: true }).getAttribute('href')).toBe('/search');
    await page.getByRole('heading', { name: 'Just Joined Servers (Last 24h)' }).waitFor();

    const justJoined = page.getByTestId('just-joined');
    await justJoined.waitFor();
    expect(await justJoined.getByRole('list', { name: 'Just joined servers' }).getByRole('article').count()).toBeGreaterThan(0);

    const topList = page.getByTestId('top-10').getByRole('list', { name: 'Top 10 servers by likes' });
    expect(await topList.getByRole('heading', { level: 3 }).allTextContents()).toEqual(top.map((s) => s.name));

    const track = page.getByTestId('top-10').locator('[data-carousel-track]');
    const animation = () =>
      track.evaluate((el) => [
        getComputedStyle(el).animationName,
        getComputedStyle(el).animationDuration,
        getComputedStyle(el).animationPlayState,
      ]);
    expect(await animation()).toEqual(['marquee', '40s', 'running']);
    await page.getByTestId('top-10').hover();
    expect((await animation())[2]).toBe('paused');
    await page.mouse.move(0, 0);
    expect((await animation())[2]).toBe('running');
    await topList.getByRole('link').first().focus();
    expect((await animation())[2]).toBe('paused');
    // The second copy that closes the loop is not reachable by keyboard or screen reader.
    expect(await page.getByTestId('top-10').locator('ul[aria-hidden="true"] a[tabindex="-1"]').count()).toBe(10);

    await page.getByRole('heading', { name: 'Server of the Weekend' }).waitFor();
    // Empty until an owner books a weekend (payments.e2e books one; files may run in any order).
    await page.getByTestId('weekend-card').or(page.getByText('No Server of the Weekend yet')).waitFor();
    expectNoPageErrors(errors);
    await context.close();
  });

  it('does not animate under prefers-reduced-motion: a plain scrollable row', async () => {
    const { context, page, errors } = await newPage(browser, { reducedMotion: 'reduce' });
    await page.goto('/home');
    const carousel = page.getByTestId('top-10');
    await carousel.waitFor();
    expect(await carousel.getAttribute('data-animated')).toBe('false');
    expect(await carousel.locator('[data-carousel-track]').count()).toBe(0);
    expect(await carousel.evaluate((el) => getComputedStyle(el).overflowX)).toBe('auto');
    expect(await carousel.getByRole('article').count()).toBe(10);
    // Top 10 is numbered #1–#10, in order.
    expect(await carousel.getByTestId('card-position').allTextContents()).toEqual(Array.from({ length: 10 }, (_, i) => `#${i + 1}`));
    expectNoPageErrors(errors);
    await context.close();
  });
});

describe('hot & popular', () => {
  it('shows 10 servers in each tab and keeps the tab in the URL', async () => {
    const { context, page, errors } = await newPage(browser);
    const popular = await api<Array<{ name: string }>>('GET', '/api/servers?sort=popular&limit=10');
    await page.goto('/list');
    const tabs = page.getByRole('tablist', { name: 'Server rankings' });
    expect(await tabs.getByRole('tab', { name: 'Hot' }).getAttribute('aria-selected')).toBe('true');
    const list = page.getByTestId('ranked-list');
    await expect.poll(() => list.getByRole('article').count()).toBe(10);

    await tabs.getByRole('tab', { name: 'Most Popular' }).click();
    await page.waitForURL((url) => url.search === '?tab=popular');
    await expect.poll(() => list.getByRole('heading', { level: 3 }).allTextContents()).toEqual(popular.map((s) => s.name));

    await page.reload();
    expect(await page.getByRole('tab', { name: 'Most Popular' }).getAttribute('aria-selected')).toBe('true');
    // Arrow keys move between tabs.
    await page.getByRole('tab', { name: 'Most Popular' }).press('ArrowLeft');
    await page.waitForURL((url) => url.search === '');
    expect(await page.getByRole('tab', { name: 'Hot' }).evaluate((el) => el === document.activeElement)).toBe(true);
    expectNoPageErrors(errors);
    await context.close();
  });
});

describe('search', () => {
  it('finds a server by part of its name and by filters, keeps the query in the URL, and Back works', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto('/search');
    const results = page.getByTestId('search-results');
    await results.waitFor();
    expect(await results.getByRole('article').count()).toBe(24);
    await page
      .getByRole('navigation', { name: 'Pagination' })
      .getByText(/Page 1 of \d/)
      .waitFor();

    await page.getByLabel('Server name').fill('eclipse cit');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === 'eclipse cit');
    await expect.poll(() => results.getByRole('heading', { level: 3 }).allTextContents()).toEqual([SEARCH_NAME]);

    await page.getByRole('button', { name: 'Clear all' }).click();
    await page.getByRole('button', { name: 'Heavy RP', exact: true }).click();
    await page.getByRole('button', { name: 'Application Required', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('filters') === 'Heavy RP,Application Required');
    await expect.poll(() => results.getByRole('heading', { level: 3 }).allTextContents()).toContain(SEARCH_NAME);
    expect(await page.getByRole('button', { name: 'Heavy RP', exact: true }).getAttribute('aria-pressed')).toBe('true');

    await page.getByLabel('Sort by').selectOption('new');
    await page.waitForURL((url) => url.searchParams.get('sort') === 'new');

    // A shared link opens the same search.
    const shared = page.url();
    const other = await context.newPage();
    await other.goto(shared);
    await expect
      .poll(() => other.getByTestId('search-results').getByRole('heading', { level: 3 }).allTextContents())
      .toContain(SEARCH_NAME);
    expect(await other.getByLabel('Sort by').inputValue()).toBe('new');

    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('sort'));
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('filters') === 'Heavy RP');
    await page.goBack();
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('q') === 'eclipse cit');
    expect(await page.getByLabel('Server name').inputValue()).toBe('eclipse cit');

    await results.getByRole('link', { name: SEARCH_NAME }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/servers/'));
    await page.getByRole('heading', { level: 1, name: SEARCH_NAME }).waitFor();
    expectNoPageErrors(errors);
    await context.close();
  });

  it('searches as the player types, narrows to servers online now, with free slots or in a player range, and counts active filters', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const phone = viewport === PHONE;
      const { context, page, errors } = await newPage(browser, { viewport });
      await page.goto('/search');
      const results = page.getByTestId('search-results');
      const names = () => results.getByRole('heading', { level: 3 }).allTextContents();
      await results.waitFor();

      // No Search press: the list and the URL follow the box once typing pauses.
      await page.getByLabel('Server name').pressSequentially('eclipse cit', { delay: 40 });
      await page.waitForURL((url) => url.searchParams.get('q') === 'eclipse cit');
      await expect.poll(names).toEqual([SEARCH_NAME]);
      await page.getByRole('button', { name: 'Clear all' }).click();
      await page.waitForURL((url) => !url.searchParams.has('q'));

      // Online now: exactly the servers the API says the game poller found online; none "Not connected".
      const online = await api<Array<{ name: string }>>('GET', '/api/servers?online=true&limit=24');
      expect(online.length).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Online now' }).click();
      await page.waitForURL((url) => url.searchParams.get('online') === '1');
      await expect.poll(() => page.getByRole('button', { name: 'Online now' }).getAttribute('aria-pressed')).toBe('true');
      await expect.poll(names).toEqual(online.map((s) => s.name));
      expect(await results.getByText('Not connected').count()).toBe(0);

      const free = await api<Array<{ name: string }>>('GET', '/api/servers?online=true&freeSlots=true&limit=24');
      await page.getByRole('button', { name: 'Has free slots' }).click();
      await page.waitForURL((url) => url.searchParams.get('freeSlots') === '1');
      await expect.poll(names).toEqual(free.map((s) => s.name));

      // The player range sits with the filters, folded on a phone; the button counts what is active.
      const filtersButton = page.getByRole('button', { name: /^Filters/ });
      if (phone) {
        expect((await filtersButton.textContent())?.replace(/[▴▾]/g, '').trim()).toBe('Filters');
        await filtersButton.click();
      }
      await page.getByLabel('From').fill('10');
      await page.getByLabel('To').fill('5');
      await page.getByRole('alert').filter({ hasText: '"From" must not be more than "To".' }).waitFor();
      await page.getByLabel('To').fill('400');
      await page.waitForURL((url) => url.searchParams.get('minPlayers') === '10' && url.searchParams.get('maxPlayers') === '400');
      const ranged = await api<Array<{ name: string }>>(
        'GET',
        '/api/servers?online=true&freeSlots=true&minPlayers=10&maxPlayers=400&limit=24',
      );
      await expect.poll(names).toEqual(ranged.map((s) => s.name));
      await page.getByRole('button', { name: 'Heavy RP', exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get('filters') === 'Heavy RP');
      if (phone) await expect.poll(async () => (await filtersButton.textContent())?.replace(/[▴▾]/g, '').trim()).toBe('Filters (2)');
      await screenshot(page, `search-live-filters-${phone ? 'phone' : 'desktop'}`);

      // A shared link opens the same narrowed search.
      const other = await context.newPage();
      const shared = page.url();
      await other.goto(shared);
      await other.getByTestId('search-results').or(other.getByText('No servers match')).first().waitFor();
      await expect
        .poll(() => other.getByRole('button', { name: 'Online now' }).getAttribute('aria-pressed'), { message: shared })
        .toBe('true');
      await expect.poll(() => other.getByLabel('From').inputValue()).toBe('10');
      await page.getByRole('button', { name: 'Clear all' }).click();
      await page.waitForURL((url) => url.search === '');
      await expect.poll(() => page.getByLabel('From').inputValue()).toBe('');
      expectNoPageErrors(errors);
      await context.close();
    }
  });

  it('shows results as compact rows on request, remembered on the device', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page, errors } = await newPage(browser, { viewport });
      await page.goto('/search');
      const results = page.getByTestId('search-results');
      await results.waitFor();
      const cards = await results.getByRole('heading', { level: 3 }).allTextContents();
      await page.getByRole('group', { name: 'Show results as' }).getByRole('button', { name: 'List', exact: true }).click();
      await page.locator('[data-testid="search-results"][data-view="list"]').waitFor();
      // The same servers in the same order, one short row each, numbered.
      expect(await results.getByRole('heading', { level: 3 }).allTextContents()).toEqual(cards);
      expect((await results.getByRole('article').first().textContent())?.startsWith('1')).toBe(true);
      await screenshot(page, `search-list-view-${viewport === PHONE ? 'phone' : 'desktop'}`);
      await page.reload();
      await page.locator('[data-testid="search-results"][data-view="list"]').waitFor();
      const views = page.getByRole('group', { name: 'Show results as' });
      expect(await views.getByRole('button', { name: 'List', exact: true }).getAttribute('aria-pressed')).toBe('true');
      await views.getByRole('button', { name: 'Cards', exact: true }).click();
      await page.locator('[data-testid="search-results"][data-view="cards"]').waitFor();
      expectNoPageErrors(errors);
      await context.close();
    }
  });

  it('pages through results with the page in the URL', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto('/search');
    const first = await page.getByTestId('search-results').getByRole('heading', { level: 3 }).first().textContent();
    await page.getByRole('button', { name: 'Next →' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await expect.poll(() => page.getByTestId('search-results').getByRole('heading', { level: 3 }).first().textContent()).not.toBe(first);
    await page.goBack();
    await expectPath(page, '/search');
    await expect.poll(() => page.getByTestId('search-results').getByRole('heading', { level: 3 }).first().textContent()).toBe(first);
    expectNoPageErrors(errors);
    await context.close();
  });
});
