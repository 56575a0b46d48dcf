import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverSchema, type Server } from '../../../../shared/schemas/server';
import { MSG } from '../../../../shared/messages';
import { uploadMultipart } from '../../../lib/upload';
import { storeOwnServer } from './get-own-servers';

/** The three image endpoints of a server: path, form field and the error shown when the server gives none. */
export const SERVER_IMAGE_UPLOADS = {
  profile: { path: 'upload-profile', field: 'profilePicture', failed: MSG.profileUploadFailed },
  banner: { path: 'upload-banner', field: 'banner', failed: MSG.bannerUploadFailed },
  gallery: { path: 'upload-gallery', field: 'galleryImages', failed: MSG.galleryUploadFailed },
} as const;
export type ServerImageKind = keyof typeof SERVER_IMAGE_UPLOADS;

/** `POST /api/servers/{id}/upload-profile|upload-banner|upload-gallery` → the updated server. */
export async function uploadServerImage(input: {
  id: string;
  kind: ServerImageKind;
  files: readonly File[];
  onProgress?: (fraction: number) => void;
}): Promise<Server> {
  if (!input.id) throw new Error(MSG.serverMissing);
  const { path, field } = SERVER_IMAGE_UPLOADS[input.kind];
  const form = new FormData();
  for (const file of input.files) form.append(field, file);
  const data = await uploadMultipart(`/api/servers/${encodeURIComponent(input.id)}/${path}`, form, { onProgress: input.onProgress });
  return serverSchema.parse(data);
}

export function useUploadServerImage() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: uploadServerImage, onSuccess: (server) => storeOwnServer(queryClient, server) });
}
