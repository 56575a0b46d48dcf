// The admin feature's public face: its pages and the site-wide maintenance banner.
export { AdminPage } from './components/admin-page';
export { EmailPage } from './components/email-page';
export { MaintenanceBanner } from './components/maintenance-banner';
