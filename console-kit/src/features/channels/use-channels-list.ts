import { useState } from 'react';
import { usePaging } from '../../components/list-page';
import { useConsoleStorage } from '../../provider/console-context';
import {
  COLUMN_KEYS,
  COLUMNS_STORAGE_KEY,
  ID_SORT_STORAGE_KEY,
  parseColumns,
  TAG_MODE_STORAGE_KEY,
} from './channel-rules';
import { isTagRow, useListChannelsQuery } from './channels-api';
import { BLANK_CHANNEL_FILTERS, type ChannelFilters } from './channels-filters';

/**
 * What the channel list shows: the search (draft and applied), type tab, paging, id sort and tag mode
 * (both remembered), the chosen columns, the selection and the expanded tags; the list query and what
 * follows from it.
 */
export function useChannelsList() {
  const storage = useConsoleStorage();
  const paging = usePaging();
  const { page, pageSize } = paging;
  const [idSort, setIdSort] = useState(() => storage.getItem(ID_SORT_STORAGE_KEY) === 'true');
  const [tagMode, setTagMode] = useState(() => storage.getItem(TAG_MODE_STORAGE_KEY) === 'true');
  const [columns, setColumns] = useState(() => parseColumns(storage.getJson(COLUMNS_STORAGE_KEY)));
  const [type, setType] = useState<number | null>(null);
  const [draft, setDraft] = useState<ChannelFilters>(BLANK_CHANNEL_FILTERS);
  const [filters, setFilters] = useState(draft);
  const [selected, setSelected] = useState<number[]>([]);
  const [expanded, setExpanded] = useState<string[]>([]);

  const list = useListChannelsQuery({ ...filters, type, page, pageSize, idSort, tagMode });
  const items = list.data?.items ?? [];
  const typeCounts = list.data?.type_counts ?? {};
  const totalOfTypes = Object.values(typeCounts).reduce((sum, count) => sum + count, 0);
  const shown = COLUMN_KEYS.filter((key) => columns[key]);
  // The channels a header tick selects: plain rows and the children of expanded tags.
  const visibleIds = items.flatMap((row) =>
    isTagRow(row) ? (expanded.includes(row.tag) ? row.children.map((child) => child.id) : []) : [row.id],
  );
  const allSelected = visibleIds.length > 0 && visibleIds.every((id) => selected.includes(id));
  const toggleSelected = (id: number, on: boolean) =>
    setSelected((current) => (on ? [...new Set([...current, id])] : current.filter((item) => item !== id)));

  return {
    storage,
    paging,
    idSort,
    setIdSort,
    tagMode,
    setTagMode,
    columns,
    setColumns,
    type,
    setType,
    draft,
    setDraft,
    filters,
    setFilters,
    selected,
    setSelected,
    expanded,
    setExpanded,
    list,
    items,
    typeCounts,
    totalOfTypes,
    shown,
    visibleIds,
    allSelected,
    toggleSelected,
  };
}
