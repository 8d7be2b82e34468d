import type { Config } from '../../config/index.ts';
import { ForbiddenError } from '../../errors.ts';
import { LocalStorageDriver } from './local-driver.ts';
import { S3StorageDriver } from './s3-driver.ts';
import type { StorageDriver } from './storage-driver.ts';

/** The configured storage locations by name; the first takes new uploads. */
export class StorageLocations {
  readonly #drivers: Map<string, StorageDriver>;
  readonly defaultLocation: string;

  constructor(config: Config) {
    this.#drivers = new Map(config.storage.locations.map((location) => [location.name, location.driver === 'local' ? new LocalStorageDriver(location.name, location.root) : new S3StorageDriver(location)]));
    this.defaultLocation = config.storage.locations[0]!.name;
  }

  /** The driver of a location; a file stored in a location no longer configured cannot be reached. */
  get(location: string): StorageDriver {
    const driver = this.#drivers.get(location);
    if (!driver) throw new ForbiddenError(`Storage location "${location}" is not configured.`);
    return driver;
  }

  /** Closes network clients. */
  close(): void {
    for (const driver of this.#drivers.values()) if (driver instanceof S3StorageDriver) driver.destroy();
  }
}
