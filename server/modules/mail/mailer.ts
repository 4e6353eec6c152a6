import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { RenderedMail } from './templates.js';

export interface Mailer {
  send(to: string, mail: RenderedMail): Promise<void>;
}

/** The mail server refused the recipient for good (an SMTP 5xx answer): the address cannot receive mail. */
export class MailRejectedError extends Error {
  constructor(
    readonly responseCode: number,
    options?: { cause?: unknown },
  ) {
    super(`recipient rejected with SMTP ${responseCode}`, options);
    this.name = 'MailRejectedError';
  }
}

function smtpResponseCode(error: unknown): number | undefined {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' ? code : undefined;
}

/**
 * Mail goes out through nodemailer over SMTP when configured; otherwise into the outbox table, which the
 * development mailbox (`GET /api/dev/outbox`) reads. Production refuses the outbox (server/config.ts).
 */
export function createMailer(config: Config, db: Kysely<Database>, clock: Clock): Mailer {
  if (config.mailTransport === 'smtp') {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(to, mail) {
        try {
          await transport.sendMail({ from: config.mailFrom, to, subject: mail.subject, text: mail.text, html: mail.html });
        } catch (error) {
          const responseCode = smtpResponseCode(error);
          if (responseCode !== undefined && responseCode >= 500) throw new MailRejectedError(responseCode, { cause: error });
          throw error;
        }
      },
    };
  }
  return {
    async send(to, mail) {
      await db
        .insertInto('outbox')
        .values({ to_address: to, ...mail, created_at: clock.now().toISOString() })
        .execute();
    },
  };
}
