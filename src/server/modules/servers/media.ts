import type { Storage } from '../../adapters/storage';
import { processImage, type ImageKind, type ProcessedImage } from '../../adapters/images';

/**
 * Images of one change, processed before anything is stored, written before the database
 * commits, and removed again if it does not: nothing half-written on any error.
 */
export async function prepareImages(files: Array<{ kind: ImageKind; data: Buffer }>): Promise<Array<ProcessedImage & { kind: ImageKind }>> {
  const out: Array<ProcessedImage & { kind: ImageKind }> = [];
  for (const file of files) out.push({ ...(await processImage(file.data, file.kind)), kind: file.kind });
  return out;
}

/** Stores the images, then runs `commit`; if anything fails, the files written are removed again. */
export async function withStoredImages<T>(storage: Storage, images: ProcessedImage[], commit: () => Promise<T>): Promise<T> {
  const written: string[] = [];
  try {
    for (const image of images) {
      await storage.put(image.key, image.data);
      written.push(image.key);
    }
    return await commit();
  } catch (error) {
    await Promise.all(written.map((key) => storage.remove(key).catch(() => undefined)));
    throw error;
  }
}

/** Files no row points to any more; a failure here leaves an orphan file, never a broken page. */
export async function removeStored(storage: Storage, keys: string[]): Promise<void> {
  await Promise.all(keys.map((key) => storage.remove(key).catch(() => undefined)));
}
