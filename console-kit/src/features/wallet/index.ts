export { WalletPage } from './wallet-page';
export {
  walletApi,
  useGetTopUpInfoQuery,
  useListTopUpOrdersQuery,
  useRedeemCodeMutation,
  useQuoteAmountMutation,
  usePayOnlineMutation,
  type PayMethod,
  type TopUpInfo,
  type TopUpOrder,
  type TopUpOrderPage,
  type RawAnswer,
} from './wallet-api';
export {
  isGatewayUrl,
  minimumAmount,
  normalizeAmount,
  parsePayMethods,
  readRawAnswer,
  submitPayForm,
} from './wallet-rules';
export { walletLocales, WALLET_NAMESPACE } from './wallet-locales';
export { walletFeature } from './feature';
