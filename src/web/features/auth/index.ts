// The auth feature's public face: its pages, and the user query the app root keeps fresh.
export { useUser } from './api/get-user';
export { LoginPage } from './components/login-page';
export { RegisterPage } from './components/register-page';
export { UpdateEmailPage } from './components/update-email-page';
export { ConfirmEmailNotice } from './components/confirm-email-notice';
