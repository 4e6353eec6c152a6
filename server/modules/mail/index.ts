import type { PortalModule } from '../../context.js';
import { MAIL_JOB, mailJob } from './jobs.js';
import { createMailer } from './mailer.js';

/**
 * Mail: rendered in the reader's language from locales/<lng>/mail.json, queued in the transaction of the
 * change that causes it (a transactional outbox), sent by the mail job over SMTP or into the outbox table.
 */
export const mailModule: PortalModule = async (_app, context) => {
  context.jobs.handle(MAIL_JOB, mailJob(createMailer(context.config, context.db.kysely, context.clock)));
};

export { queueMail } from './jobs.js';
export { MailRejectedError } from './mailer.js';
export { outboxMailsTo } from './outbox-repo.js';
export { appLink, renderMail, type MailKind, type RenderedMail } from './templates.js';
export { forgetMailTo } from './account-data-repo.js';
