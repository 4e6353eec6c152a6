import { useCustomMutation } from '@refinedev/core';
import type { CheckoutEventsData } from '@paddle/paddle-js';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { CheckoutResponse } from '../../../../contract/billing.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { createCheckoutDispatcher, type CheckoutHandlers } from '../../../billing/checkout-events.js';
import { listenToPaddle, loadPaddle, useCheckoutOverlay } from '../../../billing/paddle.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { HUMBLE_BUNDLE_KEY } from '../../../routing/guard.js';
import type { Kind } from './useCheckoutOptions.js';
import { paths } from '../../../routing/paths.js';

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
 * the server (`POST /paddle/checkout`) whenever the price, the discount or the buyer's address changes,
 * the frame's events, and on completion the success page. Leaving closes the frame and forgets a
 * humble-bundle checkout (spec section 2).
 */
export function usePaddleCheckout(kind: Kind, priceId: string | null, discountId: string | null, customerVersion: number): PaddleCheckout {
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const navigate = useNavigate();
  const { mutateAsync: createTransaction } = useCustomMutation<CheckoutResponse, DataError>();
  const [summary, setSummary] = useState<CheckoutEventsData | null>(null);
  const [transaction, setTransaction] = useState<CheckoutResponse | null>(null);
  const [loading, setLoading] = useState(true);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [providerError, setProviderError] = useState<string | null>(null);
  const [discountWarned, setDiscountWarned] = useState(0);
  const opened = useCheckoutOverlay();
  const create = useRef(createTransaction);
  create.current = createTransaction;

  useEffect(() => {
    const handlers: CheckoutHandlers = {
      loaded: (data) => {
        setSummary(data);
        setLoading(false);
      },
      updated: setSummary,
      paymentStarted: () => setProviderError(null),
      warning: () => setDiscountWarned((n) => n + 1),
      paymentFailed: () => setProviderError(t('pages.checkout.declined')),
      completed: () => void navigate(localize(paths.purchaseSuccess(kind))),
      error: ({ detail }) => {
        setProviderError(detail || t('pages.checkout.providerError'));
        setLoading(false);
      },
    };
    return listenToPaddle(createCheckoutDispatcher(() => handlers));
  }, [kind, localize, navigate, t]);

  useEffect(() => {
    if (!priceId) return undefined;
    let cancelled = false;
    setLoading(true);
    setProviderError(null);
    setErrorKey(null);
    const open = async () => {
      const paddle = await loadPaddle().catch((failure: unknown) => {
        // The payment script failing to load is shown and logged.
        console.error('checkout failed to open', failure);
        throw { messageKey: 'PAYMENT_SCRIPT_FAILED' };
      });
      const { data: checkout } = await create.current({ url: '/paddle/checkout', method: 'post', values: { priceId, discountId }, errorNotification: false });
      if (cancelled) return;
      setTransaction(checkout);
      if (opened.current) paddle.Checkout.close();
      opened.current = true;
      paddle.Checkout.open({
        transactionId: checkout.transactionId,
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
    };
    open().catch((failure: unknown) => {
      if (cancelled) return;
      setTransaction(null);
      setErrorKey(typeof failure === 'object' && failure !== null && 'messageKey' in failure ? String(failure.messageKey) : 'DEFAULT');
      setLoading(false);
    });
    return () => {
      cancelled = true;
    };
  }, [priceId, discountId, language, customerVersion, opened]);

  useEffect(
    () => () => {
      sessionStorage.removeItem(HUMBLE_BUNDLE_KEY);
    },
    [],
  );

  return { summary, applied: transaction?.discount ?? null, transaction, loading, errorKey, providerError, discountWarned };
}
