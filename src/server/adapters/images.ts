import crypto from 'node:crypto';
import { MSG } from '../../shared/messages';
import { AppError, badRequest } from '../errors';
import { Semaphore, SemaphoreFullError } from '../lib/semaphore';

/** What an image is for, and the size the pages show it at. */
export type ImageKind = 'profile' | 'banner' | 'gallery' | 'avatar';

const SIZES: Record<ImageKind, { width: number; height: number; fit: 'cover' | 'inside'; folder: string }> = {
  profile: { width: 256, height: 256, fit: 'cover', folder: 'profiles' },
  avatar: { width: 256, height: 256, fit: 'cover', folder: 'avatars' },
  banner: { width: 1200, height: 400, fit: 'cover', folder: 'banners' },
  gallery: { width: 1600, height: 1600, fit: 'inside', folder: 'gallery' },
};

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** Beyond this a small file can still decode to gigabytes (a pixel flood): refused before decoding. */
const MAX_INPUT_PIXELS = 40_000_000;
/** Decoding is CPU- and memory-heavy: two pipelines at a time per process, a short line behind them. */
export const IMAGE_CONCURRENCY = 2;
export const IMAGE_MAX_WAITING = 20;
const IMAGE_RETRY_AFTER_SECONDS = 5;
/** Every image decode of this process goes through here (exported so tests can see its peak). */
export const imageSlots = new Semaphore(IMAGE_CONCURRENCY, IMAGE_MAX_WAITING);

/** Magic numbers of the four accepted formats: the file name and type say nothing. */
function sniff(data: Buffer): 'jpeg' | 'png' | 'gif' | 'webp' | undefined {
  if (data.length < 12) return undefined;
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.subarray(0, 6).toString('latin1') === 'GIF87a' || data.subarray(0, 6).toString('latin1') === 'GIF89a') return 'gif';
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return undefined;
}

export interface ProcessedImage {
  key: string;
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Decodes an upload and re-encodes it as WebP in the size its page needs: metadata stripped,
 * only the first frame of an animation, under a generated name. Anything that is not a JPEG,
 * PNG, WebP or GIF, or does not decode, is refused with 400; over 5 MB with 413; when too many
 * images are already being decoded, 503 with Retry-After.
 */
export async function processImage(data: Buffer, kind: ImageKind): Promise<ProcessedImage> {
  if (data.length === 0) throw badRequest(MSG.imageMissing);
  if (data.length > MAX_UPLOAD_BYTES) throw new AppError(413, MSG.imageTooLarge);
  const format = sniff(data);
  if (!format) throw badRequest(MSG.imageOnly);
  try {
    return await imageSlots.run(() => decodeAndEncode(data, kind, format));
  } catch (error) {
    if (error instanceof SemaphoreFullError) {
      throw new AppError(503, MSG.busy, { 'retry-after': String(IMAGE_RETRY_AFTER_SECONDS) });
    }
    throw error;
  }
}

/** sharp (libvips, ~30 MB resident) loads on the first image, not at start-up: most starts never decode one. */
const loadSharp = () => import('sharp').then((m) => m.default);

/** Renders an SVG we made (a banner) to PNG, through the same slots as uploads. */
export async function svgToPng(svg: string): Promise<Buffer> {
  const sharp = await loadSharp();
  return imageSlots.run(() => sharp(Buffer.from(svg), { density: 72 }).png({ compressionLevel: 9, palette: true }).toBuffer());
}

async function decodeAndEncode(data: Buffer, kind: ImageKind, format: string): Promise<ProcessedImage> {
  const size = SIZES[kind];
  const sharp = await loadSharp();
  try {
    // sequentialRead: libvips streams the image top to bottom instead of holding it whole.
    const input = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true, failOn: 'error', pages: 1 });
    const meta = await input.metadata();
    if (meta.format !== format) throw badRequest(MSG.imageOnly);
    const { data: out, info } = await input
      .rotate()
      .resize({ width: size.width, height: size.height, fit: size.fit, withoutEnlargement: size.fit === 'inside' })
      .webp({ quality: 80, effort: 4 })
      .toBuffer({ resolveWithObject: true });
    return { key: `${size.folder}/${crypto.randomBytes(12).toString('hex')}.webp`, data: out, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw badRequest(MSG.imageUnreadable);
  }
}
