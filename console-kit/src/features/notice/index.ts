export { NoticeDialog, localDay, type NoticeDialogProps } from './notice-dialog';
export { noticeApi, useGetNoticeQuery } from './notice-api';
export { noticeLocales, NOTICE_NAMESPACE } from './notice-locales';
