/** One e-mail, ready to send: both an HTML and a plain-text body. */
export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** Delivers a message somewhere (SES, SMTP, the outbox folder); `from` is the configured sender. */
export interface MailTransport {
  readonly name: 'ses' | 'outbox' | 'smtp';
  send(message: MailMessage, from: string): Promise<void>;
}
