import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useCustom, useList } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Discount } from '../../../contract/billing.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { catalogueText, discountText } from '../../billing/catalogueText.js';
import type { PerpetualProduct } from '../../billing/types.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { useDocumentTitle } from '../../components/useDocumentTitle.js';
import { formatPrice } from '../../format/index.js';
import { paths } from '../../routing/paths.js';

/**
 * The upgrade discount's name on an offer (spec section 7: the discount a price carries for an owner of
 * the previous release); the generic word until it is known, or when the server names none.
 */
function UpgradeChip({ priceId }: { priceId: string }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  // Refine's useCustom answers an empty object (not undefined) while it loads and for a null answer.
  const { result } = useCustom<Discount, DataError>({
    url: `/perpetual/get-discount-by-price-id?priceId=${encodeURIComponent(priceId)}&eligibleForDiscount=true`,
    method: 'get',
    errorNotification: false,
  });
  return (
    <Chip
      color="success"
      size="small"
      label={result.data?.i18n ? discountText(result.data.i18n, language) : t('pages.perpetualProducts.upgrade')}
      sx={{ mt: 2, height: 'auto', '& span': { whiteSpace: 'normal', py: 0.5 } }}
      data-testid="upgrade-discount"
    />
  );
}

/**
 * `/perpetual` (spec section 2: the one-off purchase page): the perpetual licences on offer, each with
 * its price excluding tax in the customer's own currency and a way to buy it in the checkout. The server
 * leaves out releases the user already owns (spec section 4). An owner of the previous release sees the
 * upgrade price (spec section 3) beside the full one, with the upgrade discount named; the checkout
 * applies that discount by itself.
 */
export default function PerpetualProductsPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const title = t(titleKey);
  useDocumentTitle(title);
  const { result, query } = useList<PerpetualProduct, DataError>({ resource: 'perpetual-products', pagination: { mode: 'off' } });

  if (query.isLoading) return <FullPageSpinner />;
  const products = result.data;
  // Spec section 3: a product's first price is the one sold.
  const offers = products.flatMap((product) => (product.prices[0] ? [{ product, price: product.prices[0] }] : []));

  return (
    <Box component="section" aria-labelledby="page-title" data-testid="perpetual-products">
      <Typography id="page-title" variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      {offers.length === 0 ? (
        <Typography color="text.secondary">{t('pages.perpetualProducts.empty')}</Typography>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' }, maxWidth: 1000 }}>
          {offers.map(({ product, price }) => {
            const full = formatPrice(price.unitPrice.amount, price.unitPrice.currencyCode, language);
            const upgrade = price.upgradePrice;
            // The catalogue's own text in the reader's language (Paddle custom_data.i18n, see catalogue.ts).
            const { name, description } = catalogueText(product.i18n, language);
            return (
              <Card key={product.id} variant="outlined" component="article" aria-label={name} sx={{ display: 'flex', flexDirection: 'column' }}>
                <CardContent sx={{ flex: 1 }}>
                  <Typography variant="h5" component="h2">
                    {name}
                  </Typography>
                  {description && <Typography sx={{ mt: 1 }}>{description}</Typography>}
                  {upgrade ? (
                    <>
                      <UpgradeChip priceId={price.id} />
                      <Typography variant="h4" component="p" sx={{ mt: 1 }} data-testid="upgrade-price">
                        {formatPrice(upgrade.amount, upgrade.currencyCode, language)}
                      </Typography>
                      <Typography color="text.secondary">
                        {t('pages.perpetualProducts.insteadOf')}{' '}
                        <Box component="del" data-testid="full-price">
                          {full}
                        </Box>
                      </Typography>
                    </>
                  ) : (
                    <Typography variant="h4" component="p" sx={{ mt: 2 }}>
                      {full}
                    </Typography>
                  )}
                  <Typography color="text.secondary">
                    {t('pages.perpetualProducts.oneOff')} · {t('pages.choosePlan.excludingTax')}
                  </Typography>
                </CardContent>
                <CardActions>
                  <Button variant="contained" component={RouterLink} to={localize(paths.checkoutNew('perpetual', price.id))}>
                    {t('pages.perpetualProducts.buy', { name })}
                  </Button>
                </CardActions>
              </Card>
            );
          })}
        </Box>
      )}
    </Box>
  );
}
