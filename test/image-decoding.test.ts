import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';
import { file, multipart } from './helpers/multipart';
import { AppError } from '../src/server/errors';
import { IMAGE_CONCURRENCY, IMAGE_MAX_WAITING, imageSlots, processImage } from '../src/server/adapters/images';

/** A noisy PNG: slow enough to decode that parallel uploads overlap. */
async function noisyPng(seed: number, width = 700, height = 500): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    raw[i] = x >>> 24;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

describe('image decoding runs with bounded concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('ten concurrent uploads never run more than two sharp pipelines at once, and all succeed', async () => {
    const owner = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    const server = await createServer(t.app, owner.row.id);
    const images = await Promise.all(Array.from({ length: 10 }, (_, i) => noisyPng(i + 1)));
    // libvips' own counter of tasks being processed, sampled while the uploads run.
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, sharp.counters().process)), 1);
    try {
      const results = await Promise.all(
        images.map((image) => {
          const body = multipart([file('galleryImages', image)]);
          return t.app.inject({
            method: 'POST',
            url: `/api/servers/${server.id}/upload-gallery`,
            headers: { ...owner.headers, ...body.headers },
            payload: body.payload,
          });
        }),
      );
      expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(IMAGE_CONCURRENCY);
    expect(imageSlots.peak).toBe(IMAGE_CONCURRENCY);
  });

  it('refuses with 503 and Retry-After beyond the waiting line, and decodes the rest', async () => {
    const image = await noisyPng(99, 200, 150);
    const total = IMAGE_CONCURRENCY + IMAGE_MAX_WAITING + 8;
    const outcomes = await Promise.allSettled(Array.from({ length: total }, () => processImage(image, 'gallery')));
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason as AppError);
    expect(refused).toHaveLength(8);
    for (const error of refused) {
      expect(error).toBeInstanceOf(AppError);
      expect(error.statusCode).toBe(503);
      expect(Number(error.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(IMAGE_CONCURRENCY + IMAGE_MAX_WAITING);
  });
});
