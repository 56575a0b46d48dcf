import { LIMITS } from '../../shared/limits';
import { MSG } from '../../shared/messages';

/** The image types the server accepts (JPEG, PNG, WebP, GIF); also the file picker's `accept`. */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',');

/**
 * The server's upload rules checked before sending, so a wrong file fails at once with the same
 * message. The server still decodes every image: this is a courtesy, not the check.
 */
export function imageFileError(files: readonly File[], max = 1): string | null {
  if (files.length === 0) return MSG.imageMissing;
  if (files.length > max) return MSG.galleryFull;
  for (const file of files) {
    if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return MSG.imageOnly;
    if (file.size > LIMITS.uploadBytes) return MSG.imageTooLarge;
  }
  return null;
}
