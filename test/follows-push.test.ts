import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { startPushEndpoint } from './helpers/push-endpoint';

/** Followers hear of a followed server's event on every browser they allowed push on, through a real local push service. */
describe('push to followers', () => {
  let endpoint: Awaited<ReturnType<typeof startPushEndpoint>>;
  let t: TestApp;
  let owner: TestUser;
  let serverId: number;
  beforeAll(async () => {
    endpoint = await startPushEndpoint();
    t = await createTestApp({ env: { PUSH_ENDPOINT_HOSTS: endpoint.host }, build: { pushAgent: endpoint.agent } });
    owner = await createUser(t.app, { role: 'server_owner' });
    serverId = (await createServer(t.app, owner.row.id, { name: 'Pushy Plains' })).id;
  });
  afterAll(async () => {
    await t?.close();
    await endpoint?.close();
  });

  const subscribe = async (user: TestUser, status = 201) => {
    const sub = endpoint.subscription(status);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/push/subscribe',
      headers: user.headers,
      payload: { subscription: { endpoint: sub.endpoint, keys: sub.keys } },
    });
    expect(res.statusCode, res.body).toBe(201);
    return sub;
  };

  it('pushes an announced event to each follower’s browsers, not to others; a gone subscription is dropped', async () => {
    const fan = await createUser(t.app);
    const stranger = await createUser(t.app);
    const [phone, laptop] = [await subscribe(fan), await subscribe(fan)];
    const strangerPhone = await subscribe(stranger);
    const goneFan = await createUser(t.app);
    const gone = await subscribe(goneFan, 410);
    for (const user of [fan, goneFan]) {
      expect((await t.app.inject({ method: 'POST', url: `/api/servers/${serverId}/follow`, headers: user.headers })).statusCode).toBe(200);
    }

    const startsAt = new Date(Date.now() + 24 * 3600_000).toISOString();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/servers/${serverId}/events`,
      headers: owner.headers,
      payload: { title: 'Car meet', details: 'Bring your best ride.', startsAt },
    });
    expect(res.statusCode, res.body).toBe(201);

    const expected = {
      title: 'Pushy Plains: Car meet',
      body: expect.stringContaining('Bring your best ride.'),
      url: `/servers/${serverId}`,
      tag: expect.stringMatching(/^event-\d+$/),
    };
    await expect.poll(() => [phone.received.length, laptop.received.length], { timeout: 10_000 }).toEqual([1, 1]);
    expect(phone.received[0]).toEqual(expected);
    expect(laptop.received[0]).toEqual(expected);
    expect(strangerPhone.received).toEqual([]);
    await expect
      .poll(
        async () =>
          (await t.app.ctx.db.selectFrom('pushSubscriptions').select('id').where('endpoint', '=', gone.endpoint).execute()).length,
      )
      .toBe(0);
    // The inbox has it too.
    const inbox = (await t.app.inject({ url: '/api/notifications', headers: fan.headers })).json<Array<{ title: string }>>();
    expect(inbox.map((n) => n.title)).toContain('Pushy Plains: Car meet');
  });
});
