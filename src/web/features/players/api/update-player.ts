import { useMutation, useQueryClient } from '@tanstack/react-query';
import { playerProfileSchema, type PlayerProfile } from '../../../../shared/schemas/server';
import { uploadMultipart } from '../../../lib/upload';
import { getSession, updateSessionUser } from '../../../lib/session';
import { playerKey } from './get-player';

/** `PUT /api/players/{id}` multipart (`displayName`, optional `profilePic`) → the profile. */
export async function updatePlayer(input: {
  id: string;
  displayName: string;
  picture?: File | null;
  onProgress?: (fraction: number) => void;
}): Promise<PlayerProfile> {
  const form = new FormData();
  form.append('displayName', input.displayName);
  if (input.picture) form.append('profilePic', input.picture);
  const data = await uploadMultipart(`/api/players/${encodeURIComponent(input.id)}`, form, { method: 'PUT', onProgress: input.onProgress });
  return playerProfileSchema.parse(data);
}

/** Saves, then writes the new name and picture into the stored session user (the nav and reviews use it). */
export function useUpdatePlayer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePlayer,
    onSuccess: (profile) => {
      queryClient.setQueryData(playerKey(profile.id), profile);
      const user = getSession()?.user;
      if (user && user.id === profile.id) {
        updateSessionUser({ ...user, displayName: profile.displayName, profilePicture: profile.profilePicture ?? profile.profilePic });
      }
    },
  });
}
