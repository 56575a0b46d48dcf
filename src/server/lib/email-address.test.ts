import { describe, expect, it } from 'vitest';
import { isDisposableEmail, normalizedEmail } from './email-address';

describe('e-mail identity', () => {
  it('reads every spelling of one mailbox as one', () => {
    const one = normalizedEmail('player@example.com');
    for (const spelling of [
      'Player@Example.com',
      ' PLAYER@example.COM ',
      'player+rp@example.com',
      'player+a+b@EXAMPLE.com',
      'player@example.com.',
    ])
      expect(normalizedEmail(spelling)).toBe(one);
    const gmail = normalizedEmail('john.smith@gmail.com');
    for (const spelling of [
      'johnsmith@gmail.com',
      'J.O.H.N.Smith@GMAIL.com',
      'john.smith+votes@googlemail.com',
      'johnsmith@googlemail.com',
    ])
      expect(normalizedEmail(spelling)).toBe(gmail);
    // Dots matter elsewhere; a leading plus is a real local part.
    expect(normalizedEmail('john.smith@example.com')).not.toBe(normalizedEmail('johnsmith@example.com'));
    expect(normalizedEmail('+x@example.com')).toBe('+x@example.com');
  });

  it('knows disposable-mail domains from the maintained list, subdomains of wildcard ones too', () => {
    for (const address of ['a@mailinator.com', 'b@MAILINATOR.COM', 'c@guerrillamail.com', 'd@10minutemail.com', 'e@yopmail.com'])
      expect(isDisposableEmail(address), address).toBe(true);
    expect(isDisposableEmail('x@anything.33mail.com')).toBe(true);
    for (const address of ['a@gmail.com', 'b@outlook.com', 'c@example.org', 'd@proton.me'])
      expect(isDisposableEmail(address), address).toBe(false);
  });
});
