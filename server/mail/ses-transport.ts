import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { Config } from '../config/index.ts';
import type { MailMessage, MailTransport } from './message.ts';

/**
 * Sends through Amazon SES's v2 API. Without an access key in the config the SDK resolves credentials
 * itself (environment, shared profile, container or instance role).
 */
export function createSesTransport(ses: Config['mail']['ses']): MailTransport {
  const client = new SESv2Client({
    region: ses.region,
    // Without limits a stalled connection would hold a request (and shutdown, which waits for mail) forever.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 15_000 },
    ...(ses.endpoint ? { endpoint: ses.endpoint } : {}),
    ...(ses.accessKeyId && ses.secretAccessKey ? { credentials: { accessKeyId: ses.accessKeyId, secretAccessKey: ses.secretAccessKey } } : {}),
  });
  return {
    name: 'ses',
    async send(message, from) {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [message.to] },
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: 'UTF-8' },
              Body: { Html: { Data: message.html, Charset: 'UTF-8' }, Text: { Data: message.text, Charset: 'UTF-8' } },
            },
          },
        }),
      );
    },
  };
}
