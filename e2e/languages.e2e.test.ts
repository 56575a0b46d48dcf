import { decodeHeader, parseMail } from '../test/helpers/smtp';
import fs from 'node:fs';
import path from 'node:path';
import { setupI18n } from '@lingui/core';
import { compileMessage, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LOCALE_COOKIE, type Locale } from '../src/shared/i18n/locales';
import { api, registerUser, signInWithToken } from './api';
import { expectNoPageErrors, expectPath, launchBrowser, newPage, PHONE, screenshot, uniqueName } from './browser';
import { fromMailTo } from './outbox';

/**
 * The site in Português (Brasil) and Deutsch on a phone, for a visitor whose browser asks for that
 * language: every page of a visit, registration and an owner's pages are in it, with no English
 * sentence of ours left and nothing wider than the screen; the e-mails follow the account's
 * language; the switchers on /profile and on the landing page change it.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
type Messages = Record<string, string>;

/** A language's web catalog, all namespaces merged (English is the source). */
function webCatalog(locale: Locale): Messages {
  const folder = path.join(ROOT, 'src/web/i18n/catalogs', locale);
  const files = fs.readdirSync(folder).filter((file) => file.endsWith('.json'));
  return Object.assign({}, ...files.map((file) => JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')) as Messages)) as Messages;
}

/** A language's e-mail texts. */
function emailCatalog(locale: Locale): Messages {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'src/server/i18n/catalogs', locale, 'email.json'), 'utf8')) as Messages;
}

type Translate = (id: string, values?: Record<string, string | number>) => string;

/** A catalog's messages formatted as the app formats them, to find buttons and labels by what they say. */
function translator(messages: Messages, locale: Locale): Translate {
  const compiled = Object.fromEntries(Object.entries(messages).map(([id, text]) => [id, compileMessage(text)]));
  const i18n = setupI18n({ locale, messages: { [locale]: compiled } });
  return (id, values) => {
    expect(messages[id], `no message ${id} in the ${locale} catalog`).toBeDefined();
    return i18n._(id, values);
  };
}

/** The literal text of a compiled ICU message: what lies between its placeholders, in every plural or select branch. */
function literalText(message: CompiledMessage): string[] {
  const out: string[] = [];
  for (const token of message) {
    if (typeof token === 'string') {
      if (token !== '#') out.push(token);
      continue;
    }
    const format = token[2];
    if (format && typeof format === 'object') {
      for (const choice of Object.values(format)) if (Array.isArray(choice)) out.push(...literalText(choice as CompiledMessage));
    }
  }
  return out;
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();
const words = (text: string) => text.match(/\p{L}+/gu)?.length ?? 0;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface EnglishPhrase {
  text: string;
  ids: string[];
  pattern: RegExp;
}

/**
 * Every English sentence of ours that must not show on a page in `locale`: the literal pieces of
 * two words or more (between placeholders and markup) of each English web message whose
 * translation differs. A piece the translation itself uses somewhere (a name the language keeps)
 * is not a leak and is left out. Matched whole-word and case-blind (CSS may upper-case a label).
 */
function englishPhrases(locale: Locale): EnglishPhrase[] {
  const english = webCatalog('en');
  const translated = webCatalog(locale);
  const translatedText = normalise(Object.values(translated).join('\n')).toLowerCase();
  const byText = new Map<string, string[]>();
  for (const [id, text] of Object.entries(english)) {
    // Filter names ("Custom Cars", "Voice Chat") are words owners write in their own status and
    // bio too: they are checked where they show as filters (the search page's chips), not in all text.
    if (translated[id] === text || id.startsWith('filters.')) continue;
    for (const literal of literalText(compileMessage(text))) {
      for (const piece of literal.split(/<\/?[A-Za-z][\w-]*\s*\/?>/)) {
        const phrase = normalise(piece).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
        if (words(phrase) < 2 || translatedText.includes(phrase.toLowerCase())) continue;
        byText.set(phrase, [...(byText.get(phrase) ?? []), id]);
      }
    }
  }
  return [...byText].map(([text, ids]) => ({
    text,
    ids,
    pattern: new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(text.toLowerCase())}(?![\\p{L}\\p{N}])`, 'u'),
  }));
}

/** Every message id: one showing on a page is a message its language's catalog did not have loaded. */
const MESSAGE_IDS = Object.keys(webCatalog('en'));

/**
 * The English phrases in a page's text, each with the message it comes from and where it shows,
 * and any message id shown instead of its text.
 */
function englishIn(pageText: string, phrases: EnglishPhrase[]): string[] {
  const text = normalise(pageText).toLowerCase();
  const around = (at: number, length: number) => `"…${text.slice(Math.max(0, at - 40), at + length + 40)}…"`;
  const english = phrases.flatMap(({ text: phrase, ids, pattern }) => {
    const at = pattern.exec(text)?.index;
    return at === undefined ? [] : [`"${phrase}" (${ids.join(', ')}) in ${around(at, phrase.length)}`];
  });
  const ids = MESSAGE_IDS.flatMap((id) => {
    const at = text.indexOf(id.toLowerCase());
    return at < 0 ? [] : [`the message id ${id} in ${around(at, id.length)}`];
  });
  return [...english, ...ids];
}

/** A mail of the outbox as a person reads it: the subject's encoded words and the body's transfer encoding undone. */
interface Mail {
  subject: string;
  text: string;
}

function readMail(raw: string): Mail {
  const { headers, text } = parseMail(raw);
  return { subject: decodeHeader(headers.subject), text };
}

/** The newest mail to `to` that mentions `mentioning` (the outbox helper has waited for it). */
function newestMail(to: string, mentioning: string): Mail {
  const outbox = path.join(inject('dataDir'), 'outbox');
  const mails = fs
    .readdirSync(outbox)
    .filter((file) => file.endsWith('.eml'))
    .map((file) => ({ raw: fs.readFileSync(path.join(outbox, file), 'utf8'), at: fs.statSync(path.join(outbox, file)).mtimeMs }))
    .filter(({ raw }) => new RegExp(`^To: .*${escapeRegExp(to)}`, 'im').test(raw))
    .sort((a, b) => b.at - a.at)
    .map(({ raw }) => readMail(raw));
  const found = mails.find((mail) => mail.text.includes(mentioning));
  expect(found, `no mail to ${to} mentions ${mentioning}`).toBeDefined();
  return found!;
}

/** The greeting of a mail in `locale`, as the server writes it. */
const greeting = (locale: Locale, username: string) => emailCatalog(locale)['email.greeting']!.replace('{username}', username);

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A phone whose browser asks for `browserLocale` (navigator.languages and Accept-Language). */
const phone = (browserLocale: string) => newPage(browser, { viewport: PHONE, isMobile: true, hasTouch: true, locale: browserLocale });

/**
 * The page is in `locale` (`<html lang>`), shows no English sentence of ours, is no wider than the
 * phone, and is kept as `lang-<locale>-<name>.png` to look at.
 */
async function expectPageInLanguage(page: Page, locale: Locale, phrases: EnglishPhrase[], name: string, fullPage = true): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.lang), { message: `<html lang> of ${name}` }).toBe(locale);
  // From the top, so the sticky header is where a person sees it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `lang-${locale}-${name}`, { fullPage });
  const text = await page.evaluate(() => document.body.innerText);
  expect(englishIn(text, phrases), `English on ${name} (${page.url()})`).toEqual([]);
  const width = await page.evaluate(() => {
    const limit = window.innerWidth;
    // What sticks out, to say where to look when it fails.
    const clipped = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
        if (getComputedStyle(up).overflowX !== 'visible') return true;
      return false;
    };
    const wide = [...document.body.querySelectorAll<HTMLElement>('*')]
      .filter((el) => el.getBoundingClientRect().right > limit + 1 && el.getClientRects().length > 0 && !clipped(el))
      .concat(
        // Text running out of its own box (a long word) shows only in the text's own extent.
        [...document.body.querySelectorAll<HTMLElement>('*')].filter((el) => {
          if (clipped(el) || el.children.length > 0 || getComputedStyle(el).overflowX !== 'visible') return false;
          const range = document.createRange();
          range.selectNodeContents(el);
          return range.getBoundingClientRect().right > limit + 1;
        }),
      )
      .slice(0, 5)
      .map((el) => `<${el.tagName.toLowerCase()} class="${el.className}">${(el.textContent ?? '').slice(0, 40)}`);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: limit, wide };
  });
  expect(width.scrollWidth, `${name} is wider than the phone: ${width.wide.join(' | ')}`).toBeLessThanOrEqual(
    Math.min(width.innerWidth, PHONE.width),
  );
}

const LANGUAGES = [
  { locale: 'pt-BR', browserLocale: 'pt-BR', serverName: 'Comunidade Cidade Alta', status: 'Eventos toda noite, venha jogar' },
  // German names run long: one word of 23 letters must wrap, not push the page wider.
  {
    locale: 'de',
    browserLocale: 'de-DE',
    serverName: 'Rollenspielgemeinschaft Großstadt',
    status: 'Jeden Abend Veranstaltungen, komm vorbei',
  },
] as const satisfies ReadonlyArray<{ locale: Locale; browserLocale: string; serverName: string; status: string }>;

describe.each(LANGUAGES)('a phone asking for $locale', ({ locale, browserLocale, serverName: namePrefix, status }) => {
  const t = translator(webCatalog(locale), locale);
  const phrases = englishPhrases(locale);
  /** An owner on Premium with one server named in this language, one boost paid: the pages have something to show. */
  let owner: { token: string; serverId: string; serverName: string };

  beforeAll(async () => {
    const account = await registerUser('server_owner');
    const serverName = `${namePrefix} ${uniqueName('nr')}`;
    const server = await api<{ id: string }>('POST', '/api/servers', { name: serverName, statusMessage: status }, account.token);
    const plan = await api<{ url: string }>('POST', '/api/subscribe-session', { plan: 'Premium' }, account.token);
    await api('POST', `/api${plan.url}/complete`, undefined, account.token);
    const boost = await api<{ url: string }>('POST', '/api/boost-session', { serverId: server.id, amount: 25 }, account.token);
    await api('POST', `/api${boost.url}/complete`, undefined, account.token);
    owner = { token: account.token, serverId: server.id, serverName };
  });

  it('shows the landing page, /home, /search with a filter and a sort, and a server page in it, without English, within the screen', async () => {
    const { context, page, errors } = await phone(browserLocale);

    await page.goto('/');
    const count = page.getByTestId('player-count');
    await count.waitFor();
    // The count runs up to the live number (written the language's way) before the page is looked at.
    const live = async () => (await api<{ count: number }>('GET', '/api/player-count')).count;
    await expect
      .poll(async () => Number((await count.textContent())?.replace(/\D/g, '')) === (await live()), { timeout: 10_000 })
      .toBe(true);
    await expectPageInLanguage(page, locale, phrases, 'landing');

    await page.goto('/home');
    await page.getByTestId('top-10').waitFor();
    await page.getByTestId('just-joined').waitFor();
    await page.waitForLoadState('networkidle');
    await expectPageInLanguage(page, locale, phrases, 'home');

    await page.goto('/search');
    const results = page.getByTestId('search-results');
    await results.waitFor();
    // On a phone the filters are folded away behind their button.
    await page.locator('button[aria-controls="search-filters"]').click();
    // Every filter chip and category heading is in the language (a brand name stays as it is).
    const english = webCatalog('en');
    const translated = webCatalog(locale);
    const untranslatedNames = new Set(
      Object.entries(english)
        .filter(([id, text]) => id.startsWith('filters.') && translated[id] !== text)
        .map(([, text]) => text.toLowerCase()),
    );
    const chips = await page.locator('#search-filters fieldset button, #search-filters legend').allTextContents();
    expect(chips.length).toBeGreaterThan(20);
    expect(chips.map((c) => normalise(c)).filter((c) => untranslatedNames.has(c.toLowerCase()))).toEqual([]);
    const filter = page.locator('#search-filters fieldset button').first();
    const filterName = (await filter.textContent())!.trim();
    await filter.click();
    await page.waitForURL((url) => url.searchParams.get('filters') === filterName);
    await page.getByLabel(t('browse.search.sortLabel'), { exact: true }).selectOption('new');
    await page.waitForURL((url) => url.searchParams.get('sort') === 'new');
    await expect.poll(() => page.locator('#search-filters fieldset button[aria-pressed="true"]').count()).toBe(1);
    await page.waitForLoadState('networkidle');
    await expectPageInLanguage(page, locale, phrases, 'search');

    await page.goto(`/servers/${owner.serverId}`);
    await page.getByRole('heading', { level: 1, name: owner.serverName }).waitFor();
    await page.getByTestId('daily-vote').waitFor();
    await page.waitForLoadState('networkidle');
    await expectPageInLanguage(page, locale, phrases, 'server');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('registers through the form in it, gets the confirmation mail in it, whose link opens the site in it, then likes and votes', async () => {
    const { context, page, errors } = await phone(browserLocale);
    await page.goto('/register');
    await page.getByLabel(t('auth.field.username'), { exact: true }).waitFor();
    await expectPageInLanguage(page, locale, phrases, 'register');

    const username = uniqueName('lang');
    const email = `${username}@e2e.example.com`;
    await page.getByLabel(t('auth.field.username'), { exact: true }).fill(username);
    await page.getByLabel(t('auth.field.password'), { exact: true }).fill('language-password');
    await page.getByLabel(t('auth.field.role'), { exact: true }).selectOption('player');
    await page
      .locator('form')
      .getByRole('button', { name: t('auth.register.submit'), exact: true })
      .click();
    await expectPath(page, '/update-email');
    await page.getByLabel(t('auth.field.email'), { exact: true }).fill(email);
    await expectPageInLanguage(page, locale, phrases, 'update-email');
    await page.getByRole('button', { name: t('auth.updateEmail.submit'), exact: true }).click();
    await expectPath(page, '/profile');
    await page.getByTestId('confirm-email-notice').getByText(email).waitFor();
    await expectPageInLanguage(page, locale, phrases, 'profile-unconfirmed');

    // The mail is in the language the account was made in, and so is the page its link opens,
    // even on a device that asks for English.
    const link = await fromMailTo(email, /(https?:\/\/\S+confirm-email=[\w-]+\S*)/);
    const mail = newestMail(email, 'confirm-email=');
    const inLanguage = `the confirmation mail of an account registered in ${locale}`;
    expect(mail.subject, inLanguage).toBe(emailCatalog(locale)['email.confirm.subject']);
    expect(mail.text, inLanguage).toContain(greeting(locale, username));
    expect(new URL(link).searchParams.get('lang'), `the language of the link in ${inLanguage}`).toBe(locale);
    const elsewhere = await phone('en-US');
    await elsewhere.page.goto(link);
    await elsewhere.page
      .getByRole('status')
      .filter({ hasText: t('error.emailConfirmed') })
      .waitFor();
    await expectPageInLanguage(elsewhere.page, locale, phrases, 'email-confirmed');
    expectNoPageErrors(elsewhere.errors);
    await elsewhere.context.close();

    await page.goto(`/servers/${owner.serverId}`);
    await page.getByRole('heading', { level: 1, name: owner.serverName }).waitFor();
    await page.getByRole('button', { name: t('server.actions.like'), exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: t('server.actions.likedDone') })
      .waitFor();
    const card = page.getByTestId('daily-vote');
    await card.getByRole('button', { name: t('server.vote.vote'), exact: true }).click();
    await card
      .getByRole('status')
      .filter({ hasText: t('server.vote.thanks') })
      .waitFor();
    await page.waitForLoadState('networkidle');
    await expectPageInLanguage(page, locale, phrases, 'server-voted');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('shows an owner their dashboard, the menu and /payments in it, without English, within the screen', async () => {
    const { context, page, errors } = await phone(browserLocale);
    await signInWithToken(page, owner.token, '/dashboard');
    await page.waitForURL((url) => url.pathname === `/dashboard/${owner.serverId}`);
    await page.getByTestId('server-preview').waitFor();
    await page.waitForLoadState('networkidle');
    await expectPageInLanguage(page, locale, phrases, 'dashboard');

    await page.getByRole('button', { name: t('common.nav.openMenu'), exact: true }).click();
    await page.getByRole('button', { name: t('common.nav.closeMenu'), exact: true }).waitFor();
    await expectPageInLanguage(page, locale, phrases, 'menu', false);
    await page.getByRole('button', { name: t('common.nav.closeMenu'), exact: true }).click();

    await page.goto('/payments');
    await page.getByRole('heading', { name: t('payments.history.title'), exact: true }).waitFor();
    // On a phone the history is a list (the table is for wider screens).
    await page
      .getByRole('list', { name: t('payments.history.list'), exact: true })
      .getByRole('listitem')
      .first()
      .waitFor();
    await page.getByTestId('current-plan').waitFor();
    await page.waitForLoadState('networkidle');
    await expectPageInLanguage(page, locale, phrases, 'payments');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('the landing page’s footer switcher, without the app, reloads / in it', async () => {
    const { context, page, errors } = await phone('en-US');
    await page.goto('/');
    await page.getByTestId('player-count').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    // The check for English finds it on the English page (so its silence elsewhere means something).
    expect(englishIn(await page.evaluate(() => document.body.innerText), phrases).length).toBeGreaterThan(5);
    const switcher = page.locator('footer').getByTestId('language-switcher');
    await switcher.selectOption(locale);
    await page.waitForFunction((wanted) => document.documentElement.lang === wanted, locale);
    await page.getByTestId('player-count').waitFor();
    expect(await page.locator('footer').getByTestId('language-switcher').inputValue()).toBe(locale);
    expect((await context.cookies()).find((cookie) => cookie.name === LOCALE_COOKIE)?.value).toBe(locale);
    // Still the page on its own: the app never started.
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-app'))).toBeNull();
    await expectPageInLanguage(page, locale, phrases, 'landing-switched');
    expectNoPageErrors(errors);
    await context.close();
  });
});

describe('choosing Deutsch on /profile', () => {
  const en = translator(webCatalog('en'), 'en');
  const de = translator(webCatalog('de'), 'de');

  it('changes the page at once, keeps it after a reload, saves it on the account, and the next e-mail is German', async () => {
    const player = await registerUser('player');
    const email = `${player.username}@e2e.example.com`;
    const { context, page, errors } = await phone('en-US');
    await signInWithToken(page, player.token, '/profile');
    const heading = page.locator('#language-heading');
    await expect.poll(() => heading.textContent()).toBe(en('landing.profile.language'));
    // One switcher on the profile, one in the footer: the profile's is used.
    expect(await page.getByTestId('language-switcher').count()).toBe(2);
    const saved = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/users/locale' && res.request().method() === 'PUT');
    await page.locator('section[aria-labelledby="language-heading"]').getByTestId('language-switcher').selectOption('de');

    await expect.poll(() => heading.textContent()).toBe(de('landing.profile.language'));
    await page.getByRole('heading', { name: de('landing.profile.joinedTitle') }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect((await saved).ok()).toBe(true);

    await page.reload();
    await expect.poll(() => heading.textContent()).toBe(de('landing.profile.language'));
    expect((await context.cookies()).find((cookie) => cookie.name === LOCALE_COOKIE)?.value).toBe('de');
    await expectPageInLanguage(page, 'de', englishPhrases('de'), 'profile');
    expect((await api<{ locale: string | null }>('GET', '/api/user', undefined, player.token)).locale).toBe('de');

    await api('POST', '/api/reset-password/request', { username: player.username });
    const link = await fromMailTo(email, /(https?:\/\/\S+reset=[\w-]+\S*)/);
    const mail = newestMail(email, 'reset=');
    expect(mail.subject).toBe(emailCatalog('de')['email.reset.subject']);
    expect(mail.text).toContain(greeting('de', player.username));
    expect(new URL(link).searchParams.get('lang')).toBe('de');
    expectNoPageErrors(errors);
    await context.close();
  });
});
