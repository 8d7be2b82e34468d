import path from 'node:path';
import type { Config } from '../config/index.ts';
import type { Logger } from '../logger.ts';
import type { MailMessage, MailTransport } from './message.ts';
import { createOutboxTransport } from './outbox-transport.ts';
import { lazyModule } from '../lazy-module.ts';

/** Sends Tessera's e-mail through the configured transport. */
export interface Mailer {
  /** Which transport is in use. */
  readonly transport: MailTransport['name'];
  /** Sends one message now; rejects when the transport fails. */
  send(message: MailMessage): Promise<void>;
  /**
   * Runs `task` (which usually ends in `send`) after the response, so an endpoint that must not reveal
   * whether an address exists answers in the same time either way. Failures are logged, not thrown.
   */
  sendLater(task: () => Promise<void>): void;
  /** Resolves once every task given to sendLater has finished (tests, shutdown). */
  idle(): Promise<void>;
}

/** Builds the mailer EMAIL_TRANSPORT selects: `ses`, `smtp`, or the development `outbox` in DATA_DIR/outbox. */
export function createMailer(config: Config, logger: Logger): Mailer {
  return createMailerWith(createTransport(config, logger), config.mail.from, logger);
}

function createTransport(config: Config, logger: Logger): MailTransport {
  switch (config.mail.transport) {
    case 'ses':
      return lazyTransport('ses', async () => (await import('./ses-transport.ts')).createSesTransport(config.mail.ses));
    case 'smtp':
      if (!config.mail.smtp.host) throw new Error('EMAIL_SMTP_HOST is required for the smtp transport');
      return lazyTransport('smtp', async () => (await import('./smtp-transport.ts')).createSmtpTransport(config.mail.smtp));
    default:
      return createOutboxTransport(path.join(config.dataDir, 'outbox'), logger);
  }
}

/** A transport whose library (AWS SDK, nodemailer) loads with the first message, not at start-up. */
function lazyTransport(name: MailTransport['name'], create: () => Promise<MailTransport>): MailTransport {
  const transport = lazyModule(create);
  return { name, send: async (message, from) => (await transport()).send(message, from) };
}

/** A mailer around any transport. */
export function createMailerWith(transport: MailTransport, from: string, logger: Logger): Mailer {
  const pending = new Set<Promise<void>>();
  return {
    transport: transport.name,
    send: (message) => transport.send(message, from),
    sendLater(task) {
      const run = task()
        .catch((error: unknown) => logger.error({ err: error }, 'sending an e-mail failed'))
        .finally(() => pending.delete(run));
      pending.add(run);
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
