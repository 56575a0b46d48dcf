import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { file, makeImage, multipart, type Part } from './helpers/multipart';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const create = (user: TestUser | undefined, payload: object | string) =>
  t.app.inject({ method: 'POST', url: '/api/servers', headers: user?.headers, payload });
const customize = (user: TestUser, id: number | string, parts: Part[]) => {
  const body = multipart(parts);
  return t.app.inject({
    method: 'PUT',
    url: `/api/servers/${id}/customize`,
    headers: { ...user.headers, ...body.headers },
    payload: body.payload,
  });
};
const upload = (user: TestUser, id: number | string, route: string, parts: Part[]) => {
  const body = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: `/api/servers/${id}/${route}`,
    headers: { ...user.headers, ...body.headers },
    payload: body.payload,
  });
};
const storedFiles = () => {
  const root = path.join(t.dataDir, 'uploads');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.webp'));
};
const text = (name: string, value: string): Part => ({ name, value });

/** A tiny PNG whose header claims 50000×50000 pixels (10 GB decoded), with a valid header checksum. */
async function pixelFlood(): Promise<Buffer> {
  const png = Buffer.from(await makeImage('png', 1, 1));
  png.writeUInt32BE(50_000, 16);
  png.writeUInt32BE(50_000, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}

describe('creating servers', () => {
  it('gives the first server free, the second and third with Premium, never a fourth', async () => {
    const free = await createUser(t.app, { role: 'server_owner' });
    const first = await create(free, { name: 'First City RP', statusMessage: 'Open now' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      name: 'First City RP',
      statusMessage: 'Open now',
      ownerId: String(free.row.id),
      backgroundColor: '#ffffff',
      textColor: '#000000',
    });
    const second = await create(free, { name: 'Second' });
    expect(second.statusCode).toBe(403);
    expect(second.json()).toMatchObject({ error: 'Premium subscription required.' });

    const premium = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    for (const name of ['One', 'Two', 'Three']) expect((await create(premium, { name })).statusCode).toBe(201);
    const fourth = await create(premium, { name: 'Four' });
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json()).toMatchObject({ error: 'You already created the max 3 servers.' });
  });

  it('never passes three under ten parallel creations', async () => {
    const premium = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => create(premium, { name: `Race ${i}` })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(3);
    const rows = await t.app.ctx.db.selectFrom('servers').select('id').where('ownerId', '=', premium.row.id).execute();
    expect(rows).toHaveLength(3);
  });

  it("checks the name and who asks: 'Server name is required', players and anonymous refused", async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    for (const payload of [{}, { name: '' }, { name: '   ' }, { name: 42 }]) {
      const res = await create(owner, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Server name is required' });
    }
    expect((await create(owner, { name: 'x'.repeat(101) })).json()).toMatchObject({ error: 'Server name can be at most 100 characters' });
    expect((await create(owner, { name: 'ok', statusMessage: 's'.repeat(201) })).json()).toMatchObject({
      error: 'Status message can be at most 200 characters',
    });
    const player = await createUser(t.app);
    const byPlayer = await create(player, { name: 'Nope' });
    expect(byPlayer.statusCode).toBe(403);
    expect(byPlayer.json()).toMatchObject({ error: 'Only server owners can create servers.' });
    // Before the body: a player's malformed or oversized body gets the same answer, and so does an admin's.
    for (const payload of [{}, { name: 42 }, { name: 'x'.repeat(101) }, 'not json']) {
      const res = await create(player, payload);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'Only server owners can create servers.' });
    }
    const admin = await createUser(t.app, { role: 'admin' });
    expect((await create(admin, {})).json()).toMatchObject({ error: 'Only server owners can create servers.' });
    expect((await create(undefined, { name: 'Nope' })).statusCode).toBe(401);
  });

  it('ignores fields a client must not set', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const res = await create(owner, { name: 'Honest', likes: 999, ownerId: '1', totalBoosts: 50, views: 10 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ likes: 0, totalBoosts: 0, views: 0, ownerId: String(owner.row.id) });
  });
});

describe('customising (Pro or Premium, own servers only)', () => {
  it("needs a plan: 'Only Pro or Premium users can save their server.'", async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const res = await customize(owner, server.id, [text('bio', 'Hello')]);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'Only Pro or Premium users can save their server.' });
    const image = await upload(owner, server.id, 'upload-banner', [file('banner', await makeImage())]);
    expect(image.statusCode).toBe(403);
  });

  it('saves text, colours, Discord invite and filters, and keeps HTML as text', async () => {
    const owner = await createUser(t.app, { role: 'server_owner', plan: 'Pro' });
    const server = await createServer(t.app, owner.row.id);
    const res = await customize(owner, server.id, [
      text('name', '<script>alert(1)</script> City'),
      text('statusMessage', "'; DROP TABLE servers; --"),
      text('bio', 'A bio'),
      text('backgroundColor', '#0F172A'),
      text('textColor', '#f8fafc'),
      text('discordLink', 'https://discord.gg/abcDEF12'),
      text('filters', JSON.stringify(['FiveM (GTA V)', 'serious rp', 'English'])),
      text('likes', '500'),
      text('ownerId', '1'),
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: '<script>alert(1)</script> City',
      statusMessage: "'; DROP TABLE servers; --",
      bio: 'A bio',
      backgroundColor: '#0f172a',
      textColor: '#f8fafc',
      discordLink: 'https://discord.gg/abcDEF12',
      filters: ['English', 'FiveM (GTA V)', 'Serious RP'],
      likes: 0,
      ownerId: String(owner.row.id),
    });
    const cleared = await customize(owner, server.id, [text('discordLink', ''), text('filters', '[]')]);
    expect(cleared.json()).toMatchObject({ discordLink: null, filters: [], bio: 'A bio' });
  });

  it('refuses bad values with the rule that failed', async () => {
    const owner = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    const server = await createServer(t.app, owner.row.id);
    const cases: Array<[Part[], string]> = [
      [[text('name', '')], 'Server name is required'],
      [[text('name', 'n'.repeat(101))], 'Server name can be at most 100 characters'],
      [[text('statusMessage', 's'.repeat(201))], 'Status message can be at most 200 characters'],
      [[text('bio', 'b'.repeat(301))], 'Bio can be at most 300 characters'],
      [[text('backgroundColor', 'red')], 'Colours must look like #rrggbb'],
      [[text('textColor', '#fff')], 'Colours must look like #rrggbb'],
      [
        [text('discordLink', 'https://evil.example/invite/x')],
        'Discord link must be an invite: https://discord.gg/… or https://discord.com/invite/…',
      ],
      [
        [text('discordLink', 'javascript:alert(1)')],
        'Discord link must be an invite: https://discord.gg/… or https://discord.com/invite/…',
      ],
      [[text('filters', 'not json')], 'Filters must be a JSON array of filter names'],
      [[text('filters', '{"a":1}')], 'Filters must be a JSON array of filter names'],
      [[text('filters', '["Made Up Filter"]')], 'Unknown filter: Made Up Filter'],
    ];
    for (const [parts, error] of cases) {
      const res = await customize(owner, server.id, parts);
      expect(res.statusCode, error).toBe(400);
      expect(res.json()).toMatchObject({ error });
    }
    const unchanged = await t.app.ctx.db.selectFrom('servers').selectAll().where('id', '=', server.id).executeTakeFirstOrThrow();
    expect(unchanged.name).toBe(server.name);
    expect(unchanged.discordLink).toBeNull();
  });

  it("keeps owner A away from owner B's server, and answers 404 for unknown ids", async () => {
    const a = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    const b = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    const bServer = await createServer(t.app, b.row.id, { name: 'B City' });
    const res = await customize(a, bServer.id, [text('name', 'Stolen')]);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'You can only manage your own servers.' });
    expect((await upload(a, bServer.id, 'upload-banner', [file('banner', await makeImage())])).statusCode).toBe(403);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/servers/${bServer.id}/gallery?url=/uploads/gallery/x.webp`,
      headers: a.headers,
    });
    expect(del.statusCode).toBe(403);
    expect((await t.app.ctx.db.selectFrom('servers').select('name').where('id', '=', bServer.id).executeTakeFirstOrThrow()).name).toBe(
      'B City',
    );
    for (const id of ['999999', 'abc', '1e3', '-1']) expect((await customize(a, id, [text('bio', 'x')])).statusCode).toBe(404);
  });
});

describe('images', () => {
  let owner: TestUser;
  let serverId: number;
  beforeAll(async () => {
    owner = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    serverId = (await createServer(t.app, owner.row.id)).id;
  });

  it('re-encodes profile, banner and gallery images to WebP in their page sizes, and deletes replaced files', async () => {
    const profile = await upload(owner, serverId, 'upload-profile', [
      file('profilePicture', await makeImage('jpeg', 800, 600), 'me.jpg', 'image/jpeg'),
    ]);
    expect(profile.statusCode).toBe(200);
    const first = profile.json().profilePicture as string;
    expect(first).toMatch(/^\/uploads\/profiles\/[0-9a-f]{24}\.webp$/);
    const served = await t.app.inject({ url: first });
    expect(served.statusCode).toBe(200);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const sharp = (await import('sharp')).default;
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });

    const banner = await upload(owner, serverId, 'upload-banner', [file('banner', await makeImage('png', 2000, 900))]);
    expect(
      (await sharp(fs.readFileSync(path.join(t.dataDir, 'uploads', banner.json().banner.replace('/uploads/', '')))).metadata()).width,
    ).toBe(1200);

    const again = await upload(owner, serverId, 'upload-profile', [
      file('profilePicture', await makeImage('webp'), 'x.webp', 'image/webp'),
    ]);
    expect(again.json().profilePicture).not.toBe(first);
    expect(fs.existsSync(path.join(t.dataDir, 'uploads', first.replace('/uploads/', '')))).toBe(false);

    const gallery = await upload(owner, serverId, 'upload-gallery', [
      file('galleryImages[]', await makeImage('gif')),
      file('galleryImages[]', await makeImage('png')),
    ]);
    expect(gallery.statusCode).toBe(200);
    const images = gallery.json().galleryImages as string[];
    expect(images).toHaveLength(2);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/servers/${serverId}/gallery?url=${encodeURIComponent(images[0]!)}`,
      headers: owner.headers,
    });
    expect(removed.json().galleryImages).toEqual([images[1]]);
    expect(fs.existsSync(path.join(t.dataDir, 'uploads', images[0]!.replace('/uploads/', '')))).toBe(false);
  });

  it('strips metadata', async () => {
    const sharp = (await import('sharp')).default;
    const withExif = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#123456' } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-gps-owner' } } })
      .toBuffer();
    const res = await upload(owner, serverId, 'upload-banner', [file('banner', withExif, 'a.jpg', 'image/jpeg')]);
    const stored = fs.readFileSync(path.join(t.dataDir, 'uploads', res.json().banner.replace('/uploads/', '')));
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    expect(stored.includes(Buffer.from('secret-gps-owner'))).toBe(false);
  });

  it('refuses attacks and stores nothing: text as .png, SVG with script, 6 MB, 11 gallery images, a pixel flood', async () => {
    const before = storedFiles().length;
    const rows = async () => (await t.app.ctx.db.selectFrom('media').select('id').where('serverId', '=', serverId).execute()).length;
    const mediaBefore = await rows();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>');
    const big = Buffer.concat([await makeImage('png'), Buffer.alloc(6 * 1024 * 1024, 1)]);
    const flood = await pixelFlood();
    const eleven = await Promise.all(Array.from({ length: 11 }, () => makeImage('png')));
    const cases: Array<[string, Part[], number, string]> = [
      [
        'upload-profile',
        [file('profilePicture', Buffer.from('just text, honest'), 'x.png')],
        400,
        'Only JPEG, PNG, WebP or GIF images can be uploaded.',
      ],
      [
        'upload-profile',
        [file('profilePicture', svg, 'x.svg', 'image/svg+xml')],
        400,
        'Only JPEG, PNG, WebP or GIF images can be uploaded.',
      ],
      ['upload-banner', [file('banner', big)], 413, 'Images can be at most 5 MB.'],
      ['upload-banner', [file('banner', flood)], 400, 'This image could not be read.'],
      ['upload-gallery', eleven.map((img) => file('galleryImages[]', img)), 400, 'A gallery holds at most 10 images.'],
      ['upload-banner', [file('profilePicture', await makeImage())], 400, 'Unexpected file field: profilePicture'],
      ['upload-banner', [text('banner', 'not a file')], 400, 'Choose an image to upload.'],
    ];
    for (const [route, parts, status, error] of cases) {
      const res = await upload(owner, serverId, route, parts);
      expect(res.statusCode, `${route} ${error}`).toBe(status);
      expect(res.json()).toMatchObject({ error });
    }
    const truncated = (await makeImage('png')).subarray(0, 60);
    expect((await upload(owner, serverId, 'upload-banner', [file('banner', truncated)])).statusCode).toBe(400);
    // A multipart body the parser cannot read (no boundary, cut off mid-part) is the client's mistake.
    const unreadable = [{ 'content-type': 'multipart/form-data' }, { 'content-type': 'multipart/form-data; boundary=xyz' }];
    for (const headers of unreadable) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/servers/${serverId}/upload-banner`,
        headers: { ...owner.headers, ...headers },
        payload: '--xyz\r\nContent-Disposition: form-data; name="banner"; filename="a.png"\r\n\r\nPNG',
      });
      expect(res.statusCode, headers['content-type']).toBe(400);
      expect(res.json()).toMatchObject({ error: 'The form could not be read. Please send it again.' });
    }
    expect(storedFiles().length).toBe(before);
    expect(await rows()).toBe(mediaBefore);
  });

  it('keeps the gallery at 10 across requests, also when they race', async () => {
    const premium = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    const server = await createServer(t.app, premium.row.id);
    const three = async () => [
      file('galleryImages[]', await makeImage()),
      file('galleryImages[]', await makeImage()),
      file('galleryImages[]', await makeImage()),
    ];
    const results = await Promise.all(Array.from({ length: 5 }, async () => upload(premium, server.id, 'upload-gallery', await three())));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 400).every((r) => r.json().error === 'A gallery holds at most 10 images.')).toBe(true);
    const media = await t.app.ctx.db.selectFrom('media').select('storageKey').where('serverId', '=', server.id).execute();
    expect(media).toHaveLength(9);
    for (const m of media) expect(fs.existsSync(path.join(t.dataDir, 'uploads', m.storageKey))).toBe(true);
    const galleryFiles = storedFiles().filter((f) => f.startsWith('gallery'));
    const galleryRows = await t.app.ctx.db.selectFrom('media').select('storageKey').where('kind', '=', 'gallery').execute();
    expect(galleryFiles.length).toBe(galleryRows.length);
  });

  it('accepts images in the customise form too', async () => {
    const res = await customize(owner, serverId, [
      text('bio', 'With pictures'),
      file('banner', await makeImage()),
      file('galleryImages[]', await makeImage()),
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().bio).toBe('With pictures');
    expect(res.json().banner).toMatch(/\.webp$/);
  });
});
