import type { z } from 'zod';
import type { licenceReturnResponseSchema, perpetualProductSchema } from '../../contract/billing.js';
import type { liteKeysImportResponseSchema, liteKeysResponseSchema } from '../../contract/licensing.js';
import type { invoiceLinkSchema } from '../../contract/subscription.js';

/** Answers of the billing and licensing API the pages read, typed by the shared contract. */
export type PerpetualProduct = z.infer<typeof perpetualProductSchema>;
export type LicenceReturn = z.infer<typeof licenceReturnResponseSchema>;
export type InvoiceLink = z.infer<typeof invoiceLinkSchema>;
export type LiteKeysPage = z.infer<typeof liteKeysResponseSchema>;
export type LiteKeysImport = z.infer<typeof liteKeysImportResponseSchema>;
