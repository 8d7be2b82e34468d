import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../config/load-config.ts';
import type { MailTransport } from './message.ts';

/** A failed SMTP delivery, with nodemailer's code (EAUTH, ECONNECTION, ETLS, …) and the server's reply. */
export class SmtpSendError extends Error {
  readonly code: string;
  readonly responseCode: number | null;
  constructor(message: string, code: string, responseCode: number | null, cause: unknown) {
    super(message, { cause });
    this.name = 'SmtpSendError';
    this.code = code;
    this.responseCode = responseCode;
  }
}

interface NodemailerError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

/** Sends through an SMTP server with nodemailer: implicit TLS, or plain upgraded with STARTTLS. */
export function createSmtpTransport(smtp: SmtpConfig): MailTransport {
  if (!smtp.host) throw new Error('EMAIL_SMTP_HOST is required for the smtp transport');
  const where = `${smtp.host}:${smtp.port}`;
  const transporter = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ignoreTLS: smtp.ignoreTls,
    requireTLS: smtp.requireTls,
    ...(smtp.name ? { name: smtp.name } : {}),
    ...(smtp.user && smtp.password ? { auth: { user: smtp.user, pass: smtp.password } } : {}),
    tls: { rejectUnauthorized: smtp.tlsRejectUnauthorized, ...(smtp.tlsCa ? { ca: smtp.tlsCa } : {}) },
    // Without limits a stalled server would hold a request (and shutdown, which waits for mail) forever.
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    socketTimeout: 15_000,
  });
  return {
    name: 'smtp',
    async send(message, from) {
      try {
        await transporter.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html });
      } catch (error) {
        throw toSmtpError(error, where);
      }
    },
  };
}

function toSmtpError(error: unknown, where: string): SmtpSendError {
  const { code = 'ESMTP', responseCode, response, message } = (error ?? {}) as NodemailerError;
  const reply = response ?? message ?? String(error);
  const what =
    code === 'EAUTH' ? `SMTP login to ${where} refused` : code === 'ETLS' || /certificate/i.test(reply) ? `TLS with SMTP server ${where} failed` : code === 'ECONNECTION' || code === 'ETIMEDOUT' ? `cannot reach SMTP server ${where}` : `SMTP server ${where} refused the message`;
  return new SmtpSendError(`${what}: ${reply}`, code, responseCode ?? null, error);
}
