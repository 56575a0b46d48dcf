// The auth feature's public face: the user query the app root keeps fresh and the e-mail notice (its pages load from their own files).
export { useUser } from './api/get-user';
export { ConfirmEmailNotice } from './components/confirm-email-notice';
export { DiscordCard } from './components/discord-card';
