import { useFeatureTranslation } from '../../provider/console-i18n';
import { PERSONAL_NAMESPACE, personalLocales } from './personal-locales';

export function usePersonalTranslation() {
  return useFeatureTranslation(PERSONAL_NAMESPACE, personalLocales);
}
