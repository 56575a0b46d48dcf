import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { LIMITS } from '../../shared/limits';
import { MSG } from '../../shared/messages';
import { AppError, badRequest } from '../errors';
import { MAX_UPLOAD_BYTES } from '../adapters/images';

/** Multipart for the upload routes, bounded in every dimension (the body limit does not apply to it). */
export async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: LIMITS.galleryImages + 2, fields: 20, fieldSize: 16 * 1024, parts: 40, headerPairs: 100 },
  });
}

export interface UploadedFile {
  field: string;
  data: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedFile[];
}

/**
 * Reads a whole multipart body: text fields, and the files of the named fields (`name` or
 * `name[]`) into memory. Files under other names are refused, so nothing unexpected is kept.
 */
export async function readMultipart(request: FastifyRequest, fileFields: readonly string[]): Promise<MultipartBody> {
  if (!request.isMultipart()) throw new AppError(415, 'Send this form as multipart/form-data');
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  try {
    for await (const part of request.parts()) {
      const field = part.fieldname.replace(/\[\]$/, '');
      if (part.type === 'file') {
        if (!fileFields.includes(field)) {
          part.file.resume();
          throw badRequest(`Unexpected file field: ${part.fieldname}`);
        }
        const data = await part.toBuffer();
        if (data.length > 0) files.push({ field, data });
      } else if (typeof part.value === 'string') {
        fields[field] = part.value;
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, MSG.imageTooLarge);
    if (code === 'FST_FILES_LIMIT') throw badRequest(MSG.galleryFull);
    throw error;
  }
  return { fields, files };
}
