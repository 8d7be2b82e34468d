import { describe, expect, it } from 'vitest';
import { redisNamespace } from '../../../server/redis/redis-client.ts';

describe('redis namespace', () => {
  it('is shared by every instance of one database and differs between databases', () => {
    const one = redisNamespace('postgres://app:secret@db.example.com:5432/blog', '/srv/a');
    expect(one).toMatch(/^tessera:[0-9a-f]{12}:$/);
    // Other credentials, default port, other data folder: the same project.
    expect(redisNamespace('postgres://other:pw@db.example.com/blog', '/srv/b')).toBe(one);
    expect(redisNamespace('postgres://app:secret@db.example.com:5432/shop', '/srv/a')).not.toBe(one);
    expect(redisNamespace('postgres://app:secret@db2.example.com:5432/blog', '/srv/a')).not.toBe(one);
  });

  it('uses the data folder for the embedded database', () => {
    expect(redisNamespace(null, '/srv/a')).not.toBe(redisNamespace(null, '/srv/b'));
    expect(redisNamespace(null, '/srv/a')).toBe(redisNamespace(null, '/srv/./a'));
  });
});
