import { MSG } from '../../../../shared/messages';
import { useMessageText } from '../../../i18n/messages';
import { useT } from '../../../i18n/use-t';
import { useMaintenanceRefused } from '../../../lib/maintenance';
import { useSession } from '../../../lib/session';
import { useSettings } from '../api/get-settings';

/**
 * Site-wide maintenance banner while the server refuses writes. Admins read the toggle; everyone else learns it
 * from a write that answered 503 with the maintenance message.
 */
export function MaintenanceBanner() {
  const { t } = useT();
  const messageText = useMessageText();
  const admin = useSession()?.user.role === 'admin';
  const settings = useSettings(admin);
  const refused = useMaintenanceRefused();
  const on = admin ? settings.data?.maintenanceMode === true : refused;
  if (!on) return null;
  return (
    <div
      role="status"
      data-testid="maintenance-banner"
      className="border-b border-amber-300/30 bg-amber-400/15 px-4 py-2.5 text-center text-sm text-amber-100"
    >
      {admin ? t('common.maintenance.banner') : messageText(MSG.maintenance)}
    </div>
  );
}
