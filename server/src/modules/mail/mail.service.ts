import { Injectable, Logger } from '@nestjs/common';
import { fail } from '../../common/app-error';
import { OptionService } from '../option';

/** Sends mail through the SMTP server configured in the options (read at send time). */
@Injectable()
export class MailService {
  private readonly logger = new Logger('Mail');

  constructor(private readonly options: OptionService) {}

  configured(): boolean {
    return !!this.options.get('SMTPServer') && !!this.options.get('SMTPAccount');
  }

  async send(to: string, subject: string, html: string): Promise<void> {
    if (!this.configured()) throw fail('smtp_not_configured');
    const port = this.options.num('SMTPPort');
    // Loaded on the first mail sent (a few MB of resident memory a gateway without SMTP never needs).
    const { createTransport } = await import('nodemailer');
    const transport = createTransport({
      host: this.options.get('SMTPServer'),
      port,
      secure: this.options.bool('SMTPSSLEnabled') || port === 465,
      auth: { user: this.options.get('SMTPAccount'), pass: this.options.get('SMTPToken') },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    const from = this.options.get('SMTPFrom') || this.options.get('SMTPAccount');
    const name = this.options.get('SystemName') || 'Gatehouse';
    try {
      await transport.sendMail({ from: `"${name.replace(/["\\]/g, '')}" <${from}>`, to, subject, html });
    } catch (e) {
      this.logger.warn(`sending mail failed: ${(e as Error).message}`);
      throw fail('email_send_failed');
    } finally {
      transport.close();
    }
  }
}
