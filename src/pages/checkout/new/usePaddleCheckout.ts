import { useCustom } from '@refinedev/core';
import type { CheckoutEventsData } from '@paddle/paddle-js';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { CheckoutResponse } from '../../../../contract/billing.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { messageKeyOf } from '../../../../providers/errors.js';
import { createCheckoutDispatcher, type CheckoutHandlers } from '../../../billing/checkout-events.js';
import { listenToPaddle, loadPaddle, useCheckoutOverlay } from '../../../billing/paddle.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { HUMBLE_BUNDLE_KEY } from '../../../routing/guard.js';
import { paths } from '../../../routing/paths.js';
import type { Kind } from './useCheckoutOptions.js';

export const FRAME_CLASS = 'checkout-container';

export interface PaddleCheckout {
  /** The provider's totals as its frame reports them. */
  summary: CheckoutEventsData | null;
  /** The discount the server put on the transaction (asked for, the plan's own, or the upgrade discount). */
  applied: CheckoutResponse['discount'];
  /** The server's answer for the open transaction (its trial, discount and billing period); null before it. */
  transaction: CheckoutResponse | null;
  loading: boolean;
  /** The server's refusal of the checkout, by messageKey. */
  errorKey: string | null;
  /** The provider's own words about a declined or failed payment. */
  providerError: string | null;
  /** Spec section 4: the provider warned about the discount, which goes back to the price's own. */
  discountWarned: number;
}

/**
 * The provider's checkout inline in one-page mode, dark, in the reader's language: a transaction made by
 * the server (`POST /paddle/checkout`) for the price, the discount and the buyer's address, the frame's
 * events, and on completion the success page. Leaving closes the frame and forgets a humble-bundle checkout
 * (spec section 2).
 *
 * The transaction is what the page shows for its choices, so it is a query of them (Refine's useCustom), not
 * a mutation an effect fires: a new price, discount or address is a new query, sent once while the page
 * shows it; the last one's answer opens the frame. The server takes it as a POST (it creates the transaction
 * at the provider); a query that is never refetched (the frame holds what the buyer typed), never retried,
 * and never kept for a later visit (a transaction is paid once) sends one POST per choice, as before.
 */
export function usePaddleCheckout(kind: Kind, priceId: string | null, discountId: string | null, customerVersion: number): PaddleCheckout {
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const navigate = useNavigate();
  const [summary, setSummary] = useState<CheckoutEventsData | null>(null);
  // The transaction the frame was opened for, and the one it has reported loaded (or failed) for.
  const openedFor = useRef<string | null>(null);
  const [shownFor, setShownFor] = useState<string | null>(null);
  const [scriptFailed, setScriptFailed] = useState(false);
  const [providerError, setProviderError] = useState<string | null>(null);
  const [discountWarned, setDiscountWarned] = useState(0);
  const opened = useCheckoutOverlay();

  const { query } = useCustom<CheckoutResponse, DataError>({
    url: '/paddle/checkout',
    method: 'post',
    config: { payload: { priceId, discountId } },
    // The buyer's address is the server's: a saved one is a new transaction (and tax) for the same choices.
    meta: { customerVersion },
    errorNotification: false,
    queryOptions: {
      enabled: priceId !== null,
      retry: false,
      staleTime: Infinity,
      gcTime: 0,
      refetchOnMount: false,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
    },
  });
  // While the next one is made, the last transaction stays (Refine's keepPreviousData), its frame open.
  const transaction = query.isSuccess ? query.data.data : null;
  const transactionId = transaction?.transactionId ?? null;

  useEffect(() => {
    const handlers: CheckoutHandlers = {
      loaded: (data) => {
        setSummary(data);
        setShownFor(openedFor.current);
      },
      updated: setSummary,
      paymentStarted: () => setProviderError(null),
      warning: () => setDiscountWarned((n) => n + 1),
      paymentFailed: () => setProviderError(t('pages.checkout.declined')),
      completed: () => void navigate(localize(paths.purchaseSuccess(kind))),
      error: ({ detail }) => {
        setProviderError(detail || t('pages.checkout.providerError'));
        setShownFor(openedFor.current);
      },
    };
    return listenToPaddle(createCheckoutDispatcher(() => handlers));
  }, [kind, localize, navigate, t]);

  // The provider's frame shows the current transaction: it lives outside React, in the provider's script.
  useEffect(() => {
    if (transactionId === null) return undefined;
    let current = true;
    setProviderError(null);
    setScriptFailed(false);
    loadPaddle().then(
      (paddle) => {
        if (!current) return;
        if (opened.current) paddle.Checkout.close();
        opened.current = true;
        openedFor.current = transactionId;
        paddle.Checkout.open({
          transactionId,
          settings: {
            displayMode: 'inline',
            frameTarget: FRAME_CLASS,
            frameInitialHeight: 450,
            frameStyle: 'width: 100%; min-width: 312px; background-color: transparent; border: none;',
            theme: 'dark',
            locale: language,
            variant: 'one-page',
          },
        });
      },
      (failure: unknown) => {
        // The payment script failing to load is shown and logged.
        console.error('checkout failed to open', failure);
        if (current) setScriptFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [transactionId, language, opened]);

  useEffect(
    () => () => {
      sessionStorage.removeItem(HUMBLE_BUNDLE_KEY);
    },
    [],
  );

  const errorKey = query.isError ? messageKeyOf(query.error) : scriptFailed ? 'PAYMENT_SCRIPT_FAILED' : null;
  const loading = errorKey === null && (query.isFetching || transactionId === null || shownFor !== transactionId);
  return { summary, applied: transaction?.discount ?? null, transaction, loading, errorKey, providerError, discountWarned };
}
