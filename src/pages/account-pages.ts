import type { AccountPageName } from '../routing/routes.js';
import type { PageLoaders } from './index.js';

/**
 * The screens of the signed-in frame (src/pages/{account,checkout,admin}), typed lazy imports in a chunk
 * of their own that loads alongside the frame: the sign-in and registration pages never carry them.
 */
export const ACCOUNT_PAGES: PageLoaders<AccountPageName> = {
  home: () => import('./account/Home.js'),
  profile: () => import('./account/Profile.js'),
  socialAccount: () => import('./account/SocialAccount.js'),
  subscription: () => import('./account/Subscription.js'),
  purchaseHistory: () => import('./account/PurchaseHistory.js'),
  licences: () => import('./account/Licences.js'),
  billingInfo: () => import('./account/BillingInfo.js'),
  paymentOptions: () => import('./account/PaymentOptions.js'),
  deviceManager: () => import('./account/DeviceManager.js'),
  security: () => import('./account/Security.js'),
  subPayment: () => import('./checkout/SubPayment.js'),
  paypalReturn: () => import('./checkout/PayPalReturn.js'),
  choosePlan: () => import('./checkout/ChoosePlan.js'),
  checkoutNew: () => import('./checkout/CheckoutNew.js'),
  purchaseSuccess: () => import('./checkout/PurchaseSuccess.js'),
  perpetualProducts: () => import('./checkout/PerpetualProducts.js'),
  shapelabLite: () => import('./admin/ShapelabLite.js'),
  users: () => import('./admin/Users.js'),
  userShow: () => import('./admin/UserShow.js'),
  analytics: () => import('./admin/Analytics.js'),
  cohort: () => import('./admin/Cohort.js'),
  jobs: () => import('./admin/Jobs.js'),
  audit: () => import('./admin/Audit.js'),
};
