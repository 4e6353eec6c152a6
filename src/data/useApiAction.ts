import { useDataProvider, useNotification } from '@refinedev/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../providers/errors.js';

/** The data provider's `custom` call, which the app's one data provider always has. */
function customOf(dataProvider: ReturnType<typeof useDataProvider>) {
  const { custom } = dataProvider();
  if (!custom) throw new Error('The data provider has no custom calls');
  return custom;
}

/**
 * A read the user asks for by clicking (a short-lived invoice link, a data export): Refine's data
 * provider's `custom` GET, its failure shown by Refine's notification provider. Resolves with the data,
 * or undefined after a failure was shown.
 */
export function useOnDemandRead() {
  const dataProvider = useDataProvider();
  const { open } = useNotification();
  const { t } = useTranslation();
  return useCallback(
    async <T,>(url: string): Promise<T | undefined> => {
      try {
        const { data } = await customOf(dataProvider)<T & object>({ url, method: 'get' });
        return data;
      } catch (error) {
        open?.({ type: 'error', message: errorText(t, error) });
        return undefined;
      }
    },
    [dataProvider, open, t],
  );
}

/**
 * A write that nothing waits for, refreshes after or reports (a download recorded on the account): the
 * data provider's `custom` POST on the call, a failure ignored. No mutation hook is set up in each render
 * of the component that offers it (on the home's download box some 16 ms of a phone's load, 4x CPU,
 * 2026-11-27), for a click most visits never make.
 */
export function useOnDemandPost() {
  const dataProvider = useDataProvider();
  return useCallback(
    (url: string, payload: object): void => {
      void Promise.resolve()
        .then(() => customOf(dataProvider)({ url, method: 'post', payload }))
        .catch(() => undefined);
    },
    [dataProvider],
  );
}

/** Opens an invoice or receipt PDF: the provider's link is short-lived, so it is asked for on the click. */
export function useOpenInvoice() {
  const read = useOnDemandRead();
  return useCallback(
    async (invoiceUrl: string) => {
      const link = await read<{ url: string }>(invoiceUrl.replace(/^\/api(?=\/)/, ''));
      // The provider's link answers the PDF as an attachment: the browser downloads it and stays here.
      if (link) window.location.assign(link.url);
    },
    [read],
  );
}
