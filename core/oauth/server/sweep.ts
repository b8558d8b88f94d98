import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { dropStaleClients } from "./registration-bounds.js";
import { dropExpiredOauthRecords } from "./storage.js";

// What each MCP replica running the authorization server drops every OAUTH_SWEEP_INTERVAL_MS: expired codes,
// tokens, sessions and interactions (already read as absent), and clients registered and never granted past their
// time to live, as of `now` (the runtime's clock). Answers how many such clients went.
export async function sweepOauthRecords(db: Db, config: Config, now: Date): Promise<number> {
  await dropExpiredOauthRecords(db);
  return dropStaleClients(db, config, now);
}
