/** Page sizes of the log tables (docs/decisions.md#page-sizes) and the shared `page-size` choice. */
export {
  LIST_PAGE_SIZES as PAGE_SIZE_OPTIONS,
  DEFAULT_LIST_PAGE_SIZE as DEFAULT_PAGE_SIZE,
  listPageSize as parsePageSize,
} from '../../components/page-size';
