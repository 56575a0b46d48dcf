import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { LIMITS } from '../../shared/limits';
import { MSG } from '../../shared/messages';
import { AppError, badRequest } from '../errors';
import { MAX_UPLOAD_BYTES } from '../adapters/images';
import { guardUploadRoute, uploadBodyLimit } from './upload-guard';

/**
 * Multipart for the upload routes, bounded in every dimension (the body limit does not apply to
 * it). Registered before the routes, so each multipart route gets its ownership and size checks.
 */
export async function registerMultipart(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', guardUploadRoute);
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
  const stopCounting = cutAtLimit(request);
  try {
    // The counter and the multipart parser start reading in the same tick, so both see every byte.
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
    if (error instanceof AppError) throw error;
    // Anything else here is the parser refusing the body (no boundary, a cut or malformed part):
    // the client's mistake, never a 500.
    throw badRequest(MSG.formUnreadable);
  } finally {
    stopCounting();
  }
  return { fields, files };
}

/**
 * A body sent without Content-Length (chunked) is counted as it arrives and stopped at the
 * route's limit: the parser is handed a 413 and the connection closes after the answer.
 */
function cutAtLimit(request: FastifyRequest): () => void {
  const limit = uploadBodyLimit(request);
  if (limit === undefined || request.headers['content-length'] !== undefined) return () => undefined;
  let received = 0;
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= limit) return;
    request.raw.off('data', onData);
    request.raw.pause();
    // @fastify/multipart listens for 'error' on the request and ends the iteration with it.
    request.raw.emit('error', new AppError(413, MSG.imageTooLarge, { connection: 'close' }));
  };
  request.raw.on('data', onData);
  return () => request.raw.off('data', onData);
}
