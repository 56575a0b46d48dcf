import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localeBadge } from '../src/web/features/servers/locale-badge';
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
  it('shows new servers and the numbered top 10 in rows that stand still, swipe, snap and page with buttons', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page, errors } = await newPage(browser, { viewport });
      const top = await api<Array<{ name: string; filters: string[] }>>('GET', '/api/servers?sort=likes&limit=10');
      await page.goto('/home');
      expect(await page.getByRole('link', { name: 'Search', exact: true }).getAttribute('href')).toBe('/search');
      await page.getByRole('heading', { name: 'New servers' }).waitFor();
      await page.getByText('Just joined the list in the last 24 hours.').waitFor();

      const justJoined = page.getByTestId('just-joined');
      await justJoined.waitFor();
      expect(await justJoined.getByRole('list', { name: 'New servers' }).getByRole('article').count()).toBeGreaterThan(0);

      const topRow = page.getByTestId('top-10');
      const topList = topRow.getByRole('list', { name: 'Top 10 servers by likes' });
      await topList.waitFor();
      expect(await topList.getByRole('heading', { level: 3 }).allTextContents()).toEqual(top.map((s) => s.name));
      // Numbered #1–#10, in order; each card once (no hidden copy for a loop).
      expect(await topRow.getByTestId('card-position').allTextContents()).toEqual(Array.from({ length: 10 }, (_, i) => `#${i + 1}`));

      // Language and region sit in one short badge on each card, not among the "+N" tags.
      const locales = await topList.evaluate((list) =>
        Array.from(list.children).map((li) => li.querySelector('[data-testid="card-locale"]')?.getAttribute('title') ?? null),
      );
      expect(locales).toEqual(top.map((s) => localeBadge(s.filters)?.long ?? null));
      expect(locales.filter(Boolean).length).toBeGreaterThan(0);

      // Nothing moves by itself: no animation, and the row is where it was a moment later.
      const scrollLeft = () => topList.evaluate((el) => el.scrollLeft);
      expect(await topList.evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
      expect(await topList.evaluate((el) => [getComputedStyle(el).overflowX, getComputedStyle(el).scrollSnapType])).toEqual([
        'auto',
        'x mandatory',
      ]);
      await page.waitForTimeout(1_000);
      expect(await scrollLeft()).toBe(0);

      // Only whole cards show: every card on screen lies inside the row.
      const wholeCards = () =>
        topList.evaluate((el) => {
          const row = el.getBoundingClientRect();
          const cards = Array.from(el.children).map((c) => c.getBoundingClientRect());
          const visible = cards.filter((c) => c.right > row.left + 1 && c.left < row.right - 1);
          return { count: visible.length, whole: visible.every((c) => c.left >= row.left - 1 && c.right <= row.right + 1) };
        });
      const first = await wholeCards();
      expect(first.whole).toBe(true);
      expect(first.count).toBe(viewport === PHONE ? 1 : 4);
      const position = topRow.getByTestId('carousel-position');
      expect(await position.textContent()).toBe(viewport === PHONE ? '1 of 10' : '1–4 of 10');

      // Previous is off at the start; Next pages by one screen of whole cards.
      const previous = topRow.getByRole('button', { name: 'Previous servers' });
      const next = topRow.getByRole('button', { name: 'Next servers' });
      expect(await previous.getAttribute('aria-disabled')).toBe('true');
      const box = await next.boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(44);
      await next.click();
      await expect.poll(() => position.textContent()).toBe(viewport === PHONE ? '2 of 10' : '5–8 of 10');
      await expect.poll(async () => (await wholeCards()).whole).toBe(true);
      expect(await previous.getAttribute('aria-disabled')).toBe('false');
      if (viewport === PHONE) {
        // A swipe moves the row too; it snaps back to whole cards.
        await topList.evaluate((el) => el.scrollBy({ left: el.clientWidth * 0.6 }));
        await expect.poll(() => position.textContent()).toBe('3 of 10');
        await expect.poll(async () => (await wholeCards()).whole).toBe(true);
      }
      await screenshot(page, `home-carousel-${viewport === PHONE ? 'phone' : 'desktop'}`);

      await page.getByRole('heading', { name: 'Server of the Weekend' }).waitFor();
      // Empty until an owner books a weekend (payments.e2e books one; files may run in any order).
      await page.getByTestId('weekend-card').or(page.getByText('No Server of the Weekend yet')).waitFor();
      expectNoPageErrors(errors);
      await context.close();
    }
  });

  it('pages without smooth motion under prefers-reduced-motion', async () => {
    const { context, page, errors } = await newPage(browser, { reducedMotion: 'reduce', viewport: DESKTOP });
    await page.goto('/home');
    const topRow = page.getByTestId('top-10');
    await topRow.getByRole('article').first().waitFor();
    expect(await topRow.getByRole('article').count()).toBe(10);
    const list = topRow.getByRole('list', { name: 'Top 10 servers by likes' });
    const next = topRow.getByRole('button', { name: 'Next servers' });
    await next.click();
    // An instant jump: one frame after the click the row is already a whole screen on.
    const [left, width] = await list.evaluate(
      (el) => new Promise<[number, number]>((resolve) => requestAnimationFrame(() => resolve([el.scrollLeft, el.clientWidth]))),
    );
    expect(left).toBeGreaterThanOrEqual(width - 20);
    await expect.poll(() => topRow.getByTestId('carousel-position').textContent()).toBe('5–8 of 10');
    // Paging to the end keeps the keyboard on the button (it is aria-disabled, not disabled).
    await next.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => next.getAttribute('aria-disabled')).toBe('true');
    expect(await next.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await topRow.getByTestId('carousel-position').textContent()).toBe('7–10 of 10');
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

      // Online now: exactly the servers the API says the game poller found online; none "Not connected".
      const online = await api<Array<{ name: string }>>('GET', '/api/servers?online=true&limit=24');
      expect(online.length).toBeGreaterThan(0);
      // Clear all, then Online now before the page draws again: the cleared name stays cleared.
      const clear = await page.getByRole('button', { name: 'Clear all' }).elementHandle();
      const onlineNow = await page.getByRole('button', { name: 'Online now' }).elementHandle();
      await page.evaluate(
        ([first, second]) => {
          (first as HTMLElement).click();
          (second as HTMLElement).click();
        },
        [clear, onlineNow],
      );
      await page.waitForURL((url) => url.searchParams.get('online') === '1');
      expect(new URL(page.url()).searchParams.has('q')).toBe(false);
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
