export { PricingPage } from './pricing-page';
export { pricingApi, useGetPricingQuery } from './pricing-api';
export { pricingLocales, PRICING_NAMESPACE } from './pricing-locales';
export {
  completionPricePer1M,
  formatPrice,
  fuzzyScore,
  normalizePricing,
  perCallPrice,
  promptPricePer1M,
  usageCost,
  visibleModels,
  type Currency,
  type PricingData,
  type PricingModel,
} from './pricing-rules';
export { pricingFeature } from './feature';
