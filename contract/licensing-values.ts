/**
 * The plain values of contract/licensing.ts (which re-exports them) that the browser needs: zod-free, so a
 * page that names export formats or platforms does not build the server's schemas (tests/unit/browser-imports.test.ts).
 */

/** Each entitlement (an active or trialing subscription, each perpetual licence) allows this many devices at once (spec section 9). */
export const SEATS_PER_ENTITLEMENT = 2;

/** Desktop platforms a release is built for. */
export const PLATFORMS = ['windows', 'macos', 'linux'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** File formats the desktop application exports (reported for analytics). */
export const EXPORT_FORMATS = ['obj', 'stl', 'fbx', 'gltf', 'glb', 'ply', 'usdz', '3mf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Stores whose builds of the desktop application name themselves when activating a computer (contract/analytics.ts channels). */
export const ACTIVATION_CHANNELS = ['steam', 'metapc-store', 'viveport', 'android'] as const;
export type ActivationChannel = (typeof ACTIVATION_CHANNELS)[number];
