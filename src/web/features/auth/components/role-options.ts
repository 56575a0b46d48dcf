/** The roles a person picks from when making an account, with what each one is for. */
export const ROLE_OPTIONS = [
  { value: '', label: 'Choose your role…' },
  { value: 'player', label: 'Player: find and join servers' },
  { value: 'server_owner', label: 'Server owner: list and promote my server' },
] as const;
