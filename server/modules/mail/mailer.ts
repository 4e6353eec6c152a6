import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { insertOutboxMail } from './outbox-repo.js';
import type { RenderedMail } from './templates.js';

export interface SendOptions {
  /**
   * The job sending it: the outbox writes a job's mail once however often the job runs, and over SMTP
   * every try carries the same Message-ID, so a receiving server can tell a retry from a new mail.
   */
  jobId?: string;
}

export interface Mailer {
  send(to: string, mail: RenderedMail, options?: SendOptions): Promise<void>;
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

  /** No retry delivers it (the job queue fails such a job at once). */
  readonly permanent = true;
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
    const host = new URL(config.appUrl).hostname;
    return {
      async send(to, mail, options = {}) {
        try {
          await transport.sendMail({
            from: config.mailFrom,
            to,
            subject: mail.subject,
            text: mail.text,
            html: mail.html,
            ...(options.jobId ? { messageId: `<${options.jobId}@${host}>` } : {}),
          });
        } catch (error) {
          const responseCode = smtpResponseCode(error);
          if (responseCode !== undefined && responseCode >= 500) throw new MailRejectedError(responseCode, { cause: error });
          throw error;
        }
      },
    };
  }
  return {
    async send(to, mail, options = {}) {
      await insertOutboxMail(db, { to, mail, createdAt: clock.now().toISOString(), jobId: options.jobId ?? null });
    },
  };
}
