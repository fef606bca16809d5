/**
 * The option module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/option/ is the module's own.
 */
export { isHttpUrl, OPTION_INDEX, PRICE_KEYS, validateOptionValue } from './option-definitions';
export type { BoolOptionKey, OptionDef } from './option-definitions';
export { OptionModule } from './option.module';
export { OptionService } from './option.service';
