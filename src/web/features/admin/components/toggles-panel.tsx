import type { ReactNode } from 'react';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import { errorText } from '../../../lib/api-client';
import { useSettings, type Toggles } from '../api/get-settings';
import { useUpdateSettings } from '../api/update-settings';
import { LoadState } from './load-state';

const TOGGLES: ReadonlyArray<{ key: keyof Toggles; label: string; help: ReactNode }> = [
  { key: 'enableBoosting', label: 'Boosting', help: 'Players can buy $2 boosts and owners boost packages.' },
  { key: 'enableReviews', label: 'Reviews', help: 'Review text is shown and accepted with likes and dislikes.' },
  { key: 'maintenanceMode', label: 'Maintenance mode', help: 'Everyone but admins can only read; a banner says so.' },
];

/** The feature toggles, stored and enforced by the server: each switch saves at once. */
export function TogglesPanel() {
  const settings = useSettings();
  const update = useUpdateSettings();
  return (
    <Panel id="toggles-heading" title="Feature toggles" description="Saved on the server and applied to everyone at once.">
      {!settings.data ? (
        <LoadState pending={settings.isPending} error={settings.isError} label="settings" />
      ) : (
        <ul className="flex flex-col divide-y divide-white/5">
          {TOGGLES.map((t) => {
            const on = settings.data[t.key];
            return (
              <li key={t.key} className="flex items-center justify-between gap-4 py-3">
                <div className="min-w-0">
                  <p className="font-medium text-white">{t.label}</p>
                  <p className="text-sm text-slate-400">{t.help}</p>
                </div>
                <button
                  type="button"
                  role="switch"
                  aria-checked={on}
                  aria-label={t.label}
                  disabled={update.isPending}
                  onClick={() => update.mutate({ [t.key]: !on })}
                  className={`relative h-7 w-12 shrink-0 rounded-full transition disabled:opacity-60 ${
                    on ? (t.key === 'maintenanceMode' ? 'bg-amber-500' : 'bg-emerald-500') : 'bg-white/15'
                  }`}
                >
                  <span
                    aria-hidden="true"
                    className={`absolute top-1 size-5 rounded-full bg-white shadow transition-[left] ${on ? 'left-6' : 'left-1'}`}
                  />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <FormMessage error={update.isError ? errorText(update.error, 'Failed to save settings.') : null} />
    </Panel>
  );
}
