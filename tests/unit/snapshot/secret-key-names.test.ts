import { describe, expect, it } from 'vitest';
import { maskSecrets as maskRunLog } from '../../../server/flows/mask-secrets.ts';
import { isSecretKeyName } from '../../../server/secret-key-names.ts';

describe('secret key names (one list for flow run logs and snapshots)', () => {
  it('knows credentials under their common names and leaves ordinary names alone', () => {
    for (const key of ['password', 'passwd', 'passphrase', 'pass', 'pwd', 'client_secret', 'access_token', 'api_key', 'apiKey', 'private-key', 'Authorization', 'credentials', 'signature', 'bearer', 'Cookie']) {
      expect(isSecretKeyName(key), key).toBe(true);
    }
    for (const key of ['title', 'url', 'method', 'compass', 'passengers', 'collection', 'status']) expect(isSecretKeyName(key), key).toBe(false);
  });

  it('masks a passphrase in a flow run log, as a snapshot writes it as an environment reference', () => {
    expect(maskRunLog({ options: { passphrase: 'open sesame', url: 'https://example.test' } })).toEqual({ options: { passphrase: '**********', url: 'https://example.test' } });
  });
});
