import type { z } from 'zod';
import type {
  Grant,
  liteKeysImportResponseSchema,
  liteKeysResponseSchema,
  Release,
  SeatsResponse,
} from '../../contract/licensing.js';
import { http } from '../../providers/index.js';

export type LiteKeysPage = z.infer<typeof liteKeysResponseSchema>;
export type LiteKeysImport = z.infer<typeof liteKeysImportResponseSchema>;

/** A query string of the given parameters that have a value, with its leading '?', or ''. */
function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The licensing calls of the signed-in pages (seats, coupons, downloads, Lite keys), typed by the shared contract. */
export const licensingApi = {
  seats: () => http<SeatsResponse>('/perpetual/seats'),
  releaseSeat: (id: string) => http<{ released: true }>(`/perpetual/seats${query({ id })}`, { method: 'DELETE' }),
  redeemCoupon: (code: string) => http<{ grant: Grant }>('/coupons/redeem', { method: 'POST', body: { code } }),
  latestReleases: () => http<Release[]>('/releases/latest', { noAuth: true }),
  /** Spec section 7: records that the user downloaded the desktop application (the admin users list shows it). */
  recordDownload: (release: Pick<Release, 'id' | 'platform'>) =>
    http<{ recorded: true }>('/users/downloadedShapelab', { method: 'POST', body: { platform: release.platform, releaseId: release.id } }),
  /** The unused keys as CSV text (header row `key,channel,importedAt`). */
  exportLiteKeys: async (search?: string) => (await http<string | null>(`/lite-keys/export${query({ search })}`)) ?? '',
  importLiteKeys: (csv: string) => http<LiteKeysImport>('/lite-keys/import', { method: 'POST', body: { csv } }),
};
