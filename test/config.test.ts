import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/server/config';

describe('configuration from the environment', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      jwtSecret: undefined,
      admin: undefined,
      smtpUrl: undefined,
      mailFrom: 'no-reply@localhost',
      vapid: undefined,
      seedDemo: undefined,
    });
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '4000',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'https://rp.example.com/',
      DATA_DIR: '/tmp/rp-data',
      DATABASE_URL: 'postgres://u:p@db:5432/rp',
      REDIS_URL: 'redis://cache:6379',
      JWT_SECRET: 'x'.repeat(40),
      ADMIN_USERNAME: 'chief',
      ADMIN_PASSWORD: 'chief-password',
      ADMIN_EMAIL: 'chief@example.com',
      SMTP_URL: 'smtp://mail:25',
      MAIL_FROM: 'hello@example.com',
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_WEBHOOK_SECRET: 'whsec_123',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
      VAPID_PUBLIC_KEY: 'B'.repeat(87),
      VAPID_PRIVATE_KEY: 'p'.repeat(43),
      VAPID_SUBJECT: 'mailto:ops@example.com',
      SEED_DEMO: '1',
    });
    expect(config).toMatchObject({
      port: 4000,
      host: '127.0.0.1',
      publicUrl: 'https://rp.example.com',
      dataDir: '/tmp/rp-data',
      databaseUrl: 'postgres://u:p@db:5432/rp',
      redisUrl: 'redis://cache:6379',
      admin: { username: 'chief', password: 'chief-password', email: 'chief@example.com' },
      smtpUrl: 'smtp://mail:25',
      mailFrom: 'hello@example.com',
      stripe: { secretKey: 'sk_test_123', webhookSecret: 'whsec_123', apiUrl: 'http://127.0.0.1:12111' },
      vapid: { subject: 'mailto:ops@example.com' },
      seedDemo: true,
    });
    expect(loadConfig({ SEED_DEMO: '0' }).seedDemo).toBe(false);
  });

  it('reads STARTUP_WAIT_MS: how long a starting instance waits for its search index before it listens', () => {
    expect(loadConfig({}).startupWaitMs).toBe(60_000);
    expect(loadConfig({ STARTUP_WAIT_MS: '0' }).startupWaitMs).toBe(0);
    expect(() => loadConfig({ STARTUP_WAIT_MS: 'soon' })).toThrow(/STARTUP_WAIT_MS/);
    expect(() => loadConfig({ STARTUP_WAIT_MS: '-1' })).toThrow(/STARTUP_WAIT_MS/);
  });

  it('reads TRUST_PROXY as a switch, a number of hops or proxy addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).trustProxy).toBe('10.0.0.1, 10.0.0.2');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone!' })).toThrow(/TRUST_PROXY/);
  });

  it('refuses a Stripe secret key without the webhook secret, with one clear message', () => {
    let error: unknown;
    try {
      loadConfig({ STRIPE_SECRET_KEY: 'sk_live_123' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY (purchases are credited only from signed Stripe webhooks)',
    ]);
    // An empty secret is unset too.
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_live_123', STRIPE_WEBHOOK_SECRET: '' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_live_123', STRIPE_WEBHOOK_SECRET: 'whsec_1' }).stripe.webhookSecret).toBe('whsec_1');
    expect(loadConfig({}).stripe).toEqual({ secretKey: undefined, webhookSecret: undefined, apiUrl: undefined });
  });

  it('reads OUTBOUND_TEST_TARGETS as exact loopback ip:port pairs and refuses anything else, entry by entry', () => {
    expect(loadConfig({}).outboundTestTargets).toEqual([]);
    expect(loadConfig({ OUTBOUND_TEST_TARGETS: '' }).outboundTestTargets).toEqual([]);
    expect(loadConfig({ OUTBOUND_TEST_TARGETS: '127.0.0.1:25565, 127.0.0.1:30120,[::1]:30120,127.0.0.2:80' }).outboundTestTargets).toEqual([
      '127.0.0.1:25565',
      '127.0.0.1:30120',
      '[::1]:30120',
      '127.0.0.2:80',
    ]);
    const refused = [
      '10.0.0.1:80', // private
      '8.8.8.8:53', // public
      'localhost:80', // a name
      'game.example:30120',
      '127.0.0.1', // no port
      '[::1]',
      '127.0.0.1:', // empty port
      '127.0.0.1:0',
      '127.0.0.1:65536',
      '127.0.0.0/8:80', // a range
      '127.0.0.1-127.0.0.9:80',
      '127.0.0.1:1000-2000',
      '127.1:80', // not the standard spelling
      '2130706433:80',
      '::1:80', // IPv6 without its brackets
      '[::ffff:127.0.0.1]:80', // IPv4 in IPv6: the guard does not take it either
      '[::1%lo]:80',
      '[127.0.0.1]:80',
      'http://127.0.0.1:80',
    ];
    for (const entry of refused) {
      let error: unknown;
      try {
        loadConfig({ OUTBOUND_TEST_TARGETS: `127.0.0.1:25565,${entry}` });
      } catch (e) {
        error = e;
      }
      expect(error, entry).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems, entry).toEqual([`OUTBOUND_TEST_TARGETS: ${entry} is not a loopback ip:port`]);
    }
    // Every bad entry is listed, alongside the other variables' problems.
    let error: unknown;
    try {
      loadConfig({ OUTBOUND_TEST_TARGETS: '10.0.0.1:80,127.0.0.1:1,localhost:80,', PORT: 'eighty' });
    } catch (e) {
      error = e;
    }
    expect((error as ConfigError).problems).toEqual(
      expect.arrayContaining([
        'OUTBOUND_TEST_TARGETS: 10.0.0.1:80 is not a loopback ip:port',
        'OUTBOUND_TEST_TARGETS: localhost:80 is not a loopback ip:port',
        'OUTBOUND_TEST_TARGETS: an empty entry is not a loopback ip:port',
      ]),
    );
    expect((error as ConfigError).problems.join('\n')).toContain('PORT');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).databaseUrl).toBeUndefined();
  });

  it('stops with every problem listed at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        REDIS_URL: 'http://nope',
        JWT_SECRET: 'short',
        SEED_DEMO: 'yes',
        STRIPE_SECRET_KEY: 'pk_live',
        VAPID_PUBLIC_KEY: 'B'.repeat(87),
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'REDIS_URL', 'JWT_SECRET', 'SEED_DEMO', 'STRIPE_SECRET_KEY', 'VAPID_PRIVATE_KEY'])
      expect(problems).toContain(name);
    expect((error as ConfigError).message).toMatch(/^Invalid configuration:\n {2}- /);
  });
});
