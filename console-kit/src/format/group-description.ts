import type { TFunction } from 'i18next';

/**
 * The descriptions a fresh installation gives its groups (option UserUsableGroups). They are data
 * written in Chinese; while an operator has not changed them they are shown in the reader's language
 * from the common bundle (`groupDescriptions.<group>`). Anything else is the operator's own text.
 */
const BUILT_IN: Readonly<Record<string, string>> = { default: '默认分组', vip: 'vip分组' };

export function groupDescription(group: string, desc: string | null | undefined, t: TFunction): string {
  const text = desc ?? '';
  if (Object.prototype.hasOwnProperty.call(BUILT_IN, group) && BUILT_IN[group] === text.trim()) {
    return t(`common:groupDescriptions.${group}`);
  }
  return text;
}
