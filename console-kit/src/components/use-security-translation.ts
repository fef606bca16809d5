import { useFeatureTranslation } from '../provider/console-i18n';
import { SECURITY_NAMESPACE, securityLocales } from './security-locales';

export function useSecurityTranslation() {
  return useFeatureTranslation(SECURITY_NAMESPACE, securityLocales);
}
