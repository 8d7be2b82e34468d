import { systemAccountability } from '../../auth/accountability.ts';
import { ItemsService } from '../../services/items/items-service.ts';
import type { OperationHandler } from '../flow-types.ts';

/** Writes one tessera_notifications row per options.recipient (Directus `notification`); returns the keys. */
export const notification: OperationHandler = async (options, { app, accountability }) => {
  const recipients = (Array.isArray(options.recipient) ? options.recipient : String(options.recipient ?? '').split(',')).map((entry) => String(entry).trim()).filter(Boolean);
  if (recipients.length === 0) throw new Error('"recipient" must name at least one user.');
  const schema = await app.schema.get();
  const service = new ItemsService('tessera_notifications', { ...app.servicesContext(systemAccountability()), schema });
  return service.createMany(
    recipients.map((recipient) => ({ recipient, sender: accountability?.user ?? null, subject: String(options.subject ?? ''), message: options.message === undefined ? null : String(options.message), collection: options.collection ?? null, item: options.item ?? null })),
  );
};
