/**
 * The mail module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/mail/ is the module's own.
 */
export { MailModule } from './mail.module';
export { MailService } from './mail.service';
export { deliverNotice, escapeHtml } from './user-notice';
export type { NoticeTarget, UserNotice } from './user-notice';
