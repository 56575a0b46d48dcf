/** Site-wide feature toggles (boosting, reviews, maintenance mode), switched by admins. */
export { settingsService, type SettingsService, type Toggles } from './settings.service';
export { settingsRepository, TOGGLES, type SettingsRepository, type Toggle } from './settings.repository';
