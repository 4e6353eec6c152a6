import type { ComponentType } from 'react';
import type { PageProps } from './index.js';

type PageModule = { default: ComponentType<PageProps> };

/**
 * The screens of the signed-in frame (src/pages/{account,checkout,admin}), in a chunk of their own that
 * loads alongside the frame: the sign-in and registration pages never carry the list of them.
 */
export const ACCOUNT_PAGE_LOADERS: Record<string, () => Promise<PageModule>> = import.meta.glob<PageModule>(['./account/*.tsx', './checkout/*.tsx', './admin/*.tsx']);
