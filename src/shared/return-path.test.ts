import { describe, expect, it } from 'vitest';
import { DEFAULT_RETURN_PATH, RETURN_PATH_MAX, safeReturnPath } from './return-path';

describe('safeReturnPath', () => {
  it.each([['/payments'], ['/'], ['/servers/42'], ['/dashboard/7?tab=stats'], ['/search?q=city-rp&filters=Serious%2CWhitelist']])(
    'keeps the site path %j',
    (path) => {
      expect(safeReturnPath(path)).toBe(path);
    },
  );

  it.each([
    ['empty', ''],
    ['null', null],
    ['undefined', undefined],
    ['protocol-relative', '//evil.com'],
    ['protocol-relative with a path', '//evil.com/payments'],
    ['backslash read as a slash', '/\\evil.com'],
    ['only backslashes', '\\\\evil.com'],
    ['absolute https', 'https://evil.example/steal'],
    ['absolute http', 'http://evil'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['data scheme', 'data:text/html,<script>alert(1)</script>'],
    ['relative, no slash', 'evil.com'],
    ['leading space', ' /payments'],
    ['tab the browser drops', '/\t/evil.com'],
    ['newline the browser drops', '/\n/evil.com'],
    ['user info', '/@evil.com'],
    ['dot segments', '/servers/1/../../x'],
    ['encoded slashes', '/%2F%2Fevil.com'],
    ['encoded slashes, lower case', '/%2f%2fevil.com'],
    ['encoded backslash', '/%5Cevil.com'],
    ['encoded dot segments', '/%2e%2e/admin'],
    ['fragment', '/payments#x'],
  ])('refuses %s', (_name, path) => {
    expect(safeReturnPath(path)).toBe(DEFAULT_RETURN_PATH);
  });

  it(`cuts a kept path to ${RETURN_PATH_MAX} characters`, () => {
    const long = `/servers/${'a'.repeat(400)}`;
    expect(safeReturnPath(long)).toBe(long.slice(0, RETURN_PATH_MAX));
  });
});
