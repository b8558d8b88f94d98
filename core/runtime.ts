import { ArtifactUrlSigner } from "./artifacts/signed-url.js";
import { S3ArtifactStore } from "./artifacts/s3-store.js";
import { FilesystemArtifactStore, type ArtifactStore } from "./artifacts/store.js";
import type { Config, VendorFamily } from "./config.js";
import { connectDatabase, type Database, type Db } from "./db/client.js";
import { defaultIds, type IdGenerator } from "./ids.js";
import { ProviderRegistry } from "./providers/registry.js";

// Everything a use-case needs, built once per process. Clock and ids are injectable so tests control time.
export interface Core {
  config: Config;
  db: Db;
  clock: () => Date;
  ids: IdGenerator;
  artifacts: ArtifactStore;
  signer: ArtifactUrlSigner;
  providers: ProviderRegistry;
  isFamilyLive(family: VendorFamily): boolean;
  close(): Promise<void>;
}

export interface CoreOverrides {
  clock?: () => Date;
  ids?: IdGenerator;
  database?: Database;
  dbPoolSize?: number;
}

export function createCore(config: Config, overrides: CoreOverrides = {}): Core {
  const database = overrides.database ?? connectDatabase(config.databaseUrl, { max: overrides.dbPoolSize });
  const clock = overrides.clock ?? (() => new Date());
  const providers = new ProviderRegistry(config);
  return {
    config,
    db: database.db,
    clock,
    ids: overrides.ids ?? defaultIds(clock),
    artifacts: config.s3 ? new S3ArtifactStore(config.s3) : new FilesystemArtifactStore(config.artifactDir),
    signer: new ArtifactUrlSigner(config.publicBaseUrl, config.artifactUrlSecret, config.artifactUrlTtlSeconds),
    providers,
    isFamilyLive: (family) => providers.isLive(family),
    close: () => database.close(),
  };
}
