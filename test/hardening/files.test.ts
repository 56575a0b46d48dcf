import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createServer, createUser, type TestUser } from '../helpers/factories';
import { file, makeImage, multipart } from '../helpers/multipart';
import { filler, rawUpload } from '../helpers/raw-upload';
import { report } from './report';

const MB = 1024 * 1024;

/** A PNG whose header claims `size`×`size` pixels, with a valid header checksum. */
async function claimedSize(size: number): Promise<Buffer> {
  const png = Buffer.from(await makeImage('png', 1, 1));
  png.writeUInt32BE(size, 16);
  png.writeUInt32BE(size, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}

interface Case {
  name: string;
  body: () => Promise<Buffer>;
  filename?: string;
  contentType?: string;
  /** What must never be found in the stored file, when the upload is accepted. */
  forbidden?: string[];
}

const SCRIPT = '<html><script>alert(document.cookie)</script></html>';

const CASES: Case[] = [
  { name: 'over 5 MB', body: async () => Buffer.concat([await makeImage('png'), Buffer.alloc(5 * MB + 10)]) },
  {
    name: 'GIF/JS polyglot',
    body: async () => Buffer.from(`GIF89a/*\x01\x00\x01\x00\x00\x00\x00*/=1;alert(document.cookie);//`, 'latin1'),
    filename: 'x.gif',
    contentType: 'image/gif',
  },
  {
    name: 'valid GIF with a script appended',
    body: async () => Buffer.concat([await makeImage('gif'), Buffer.from(`;${SCRIPT}`)]),
    filename: 'x.gif',
    contentType: 'image/gif',
    forbidden: ['<script', 'alert('],
  },
  {
    name: 'JPEG/HTML polyglot (HTML in a comment segment and after the image)',
    body: async () => {
      const jpeg = await makeImage('jpeg');
      const comment = Buffer.from(SCRIPT);
      const com = Buffer.concat([Buffer.from([0xff, 0xfe, (comment.length + 2) >> 8, (comment.length + 2) & 0xff]), comment]);
      return Buffer.concat([jpeg.subarray(0, 2), com, jpeg.subarray(2), Buffer.from(SCRIPT)]);
    },
    filename: 'x.html',
    contentType: 'text/html',
    forbidden: ['<script', 'alert(', '<html'],
  },
  {
    name: 'SVG with script',
    body: async () => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`),
    filename: 'x.svg',
    contentType: 'image/svg+xml',
  },
  { name: 'text named .png', body: async () => Buffer.from('just some text, honestly an image'), filename: 'x.png' },
  { name: 'PNG named .php', body: () => makeImage('png'), filename: 'shell.php', contentType: 'application/x-php', forbidden: ['<?php'] },
  { name: 'pixel flood: 50000×50000 claimed by a tiny PNG', body: () => claimedSize(50_000) },
  { name: 'pixel flood: 7000×7000 claimed', body: () => claimedSize(7_000) },
  { name: 'truncated PNG', body: async () => (await makeImage('png', 400, 300)).subarray(0, 200) },
  {
    name: 'truncated JPEG',
    body: async () => {
      const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#844' } })
        .jpeg()
        .toBuffer();
      return jpeg.subarray(0, Math.floor(jpeg.length / 2));
    },
    filename: 'x.jpg',
    contentType: 'image/jpeg',
  },
  {
    name: 'JPEG with EXIF GPS position',
    body: () =>
      sharp({ create: { width: 64, height: 48, channels: 3, background: '#fff' } })
        .jpeg()
        .withExif({ IFD0: { Copyright: 'secret-owner' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
        .toBuffer(),
    filename: 'x.jpg',
    contentType: 'image/jpeg',
    forbidden: ['secret-owner', 'GPS'],
  },
];

describe('hostile files', () => {
  let t: TestApp;
  let owner: TestUser;
  let serverId: number;
  let peakRss = 0;
  let sampler: NodeJS.Timeout;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.app, { role: 'server_owner', plan: 'Pro' });
    serverId = (await createServer(t.app, owner.row.id)).id;
    sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
  });
  afterAll(async () => {
    clearInterval(sampler);
    await t.close();
  });

  /** Every file under the uploads folder, by path. */
  const storedFiles = (): string[] => {
    const root = t.app.ctx.storage.root;
    if (!fs.existsSync(root)) return [];
    return fs
      .readdirSync(root, { recursive: true, withFileTypes: true })
      .flatMap((d) => (d.isFile() ? [path.join(d.parentPath, d.name)] : []));
  };

  it('refuses each file, or stores it only re-encoded as a clean WebP', async () => {
    const failures: string[] = [];
    let refused = 0;
    for (const c of CASES) {
      const before = new Set(storedFiles());
      const body = multipart([file('profilePicture', await c.body(), c.filename ?? 'x.png', c.contentType ?? 'image/png')]);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/servers/${serverId}/upload-profile`,
        headers: { ...owner.headers, ...body.headers },
        payload: body.payload,
      });
      const added = storedFiles().filter((f) => !before.has(f));
      if (res.statusCode >= 500) failures.push(`${c.name}: ${res.statusCode}`);
      if (res.statusCode === 400 || res.statusCode === 413) {
        refused++;
        if (added.length > 0) failures.push(`${c.name}: refused but stored ${added.join(', ')}`);
        continue;
      }
      if (res.statusCode !== 200 || !c.forbidden) {
        failures.push(`${c.name}: answered ${res.statusCode}`);
        continue;
      }
      // Accepted: the stored file must be a WebP under a generated name, with no metadata and none of the payload.
      for (const stored of added) {
        const bytes = fs.readFileSync(stored);
        const meta = await sharp(bytes).metadata();
        if (!stored.endsWith('.webp') || meta.format !== 'webp') failures.push(`${c.name}: stored ${stored} as ${meta.format}`);
        if (meta.exif || meta.xmp || meta.iptc) failures.push(`${c.name}: metadata kept`);
        for (const needle of c.forbidden) if (bytes.includes(needle)) failures.push(`${c.name}: stored file contains ${needle}`);
      }
      if (added.length === 0) failures.push(`${c.name}: accepted but nothing stored`);
    }
    report({
      area: 'File upload',
      check: 'hostile images (oversized, polyglot, SVG, wrong type, pixel flood, truncated, EXIF GPS)',
      tried: CASES.length,
      gotThrough: failures.length,
      detail: `${refused} refused, ${CASES.length - refused} re-encoded clean; peak RSS ${Math.round(peakRss / MB)} MB${failures.length ? `; ${failures.join('; ')}` : ''}`,
    });
    expect(failures).toEqual([]);
  });

  it('answers 413 to a declared oversized body before it is sent', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const rssBefore = process.memoryUsage().rss;
    const tried = 5;
    let gotThrough = 0;
    let slowest = 0;
    for (let i = 0; i < tried; i++) {
      const res = await rawUpload({
        port,
        path: `/api/servers/${serverId}/upload-profile`,
        headers: { 'content-type': 'multipart/form-data; boundary=x', ...owner.headers },
        declaredLength: (6 + i * 20) * MB,
        chunks: filler(1),
        timeoutMs: 3000,
      }).catch(() => ({ status: 0, ms: 3000 }));
      slowest = Math.max(slowest, res.ms);
      if (res.status !== 413 || res.ms > 1000) gotThrough++;
    }
    const grew = Math.max(0, process.memoryUsage().rss - rssBefore);
    report({
      area: 'File upload',
      check: '413 before an oversized body is read',
      tried,
      gotThrough,
      detail: `6 to 86 MB declared, 64 KB sent; slowest answer ${slowest} ms; RSS grew ${Math.round(grew / MB)} MB; peak RSS ${Math.round(peakRss / MB)} MB`,
    });
    expect(gotThrough).toBe(0);
  });
});
