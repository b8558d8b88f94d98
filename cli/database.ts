import { EMBEDDED_DIR, embeddedExists, embeddedUrl, reachable, startEmbedded } from "../scripts/embedded-postgres.js";
import { shown } from "../scripts/local-env.js";
import { readLocalSettings, SETTINGS_FILE } from "../scripts/local-settings.js";

// Which database (and which settings) a command acts on, in this order: DATABASE_URL; the database `npm start`
// uses, from the settings it wrote in .data/; the embedded database in .data/postgres; and, only when asked with
// --create-database, a new embedded one. A command never creates a second, empty database by surprise.
export interface CliDatabase {
  // The environment the command's configuration is read from: npm start's settings under the caller's own.
  env: Record<string, string | undefined>;
  url: string;
  // Said on stderr before the command runs.
  description: string;
  stop?: () => Promise<void>;
}

export class NoDatabaseError extends Error {}

function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unparsable DATABASE_URL)";
  }
}

async function embedded(create: boolean, log: (line: string) => void): Promise<{ url: string; started: string; stop?: () => Promise<void> }> {
  const url = embeddedUrl();
  if (await reachable(url)) return { url, started: "" };
  const server = await startEmbedded({ create, log });
  return { url, started: ", started for this command and stopped after it", stop: () => server.stop() };
}

export async function openCliDatabase(options: { createDatabase: boolean; log: (line: string) => void }): Promise<CliDatabase> {
  const given = process.env.DATABASE_URL;
  const local = readLocalSettings();
  const localUrl = local?.settings.DATABASE_URL;
  // npm start's settings apply when they describe the same database: the caller's own variables win one by one.
  const sameStack = local !== null && localUrl !== undefined && (given === undefined || given === localUrl);
  const env = { ...(sameStack ? local.settings : {}), ...process.env };
  const settingsNote = sameStack ? `, with npm start's settings from ${shown(SETTINGS_FILE)}` : "";
  if (given) return { env, url: given, description: `${redacted(given)} (from DATABASE_URL${settingsNote})` };
  if (sameStack && localUrl) {
    if (!local.embedded_database) return { env, url: localUrl, description: `${redacted(localUrl)} (npm start's${settingsNote})` };
    const server = await embedded(false, options.log);
    return { env, url: server.url, description: `${redacted(server.url)} (npm start's embedded database in ${shown(EMBEDDED_DIR)}${server.started})`, stop: server.stop };
  }
  if (embeddedExists() || options.createDatabase) {
    const server = await embedded(options.createDatabase, options.log);
    return { env, url: server.url, description: `${redacted(server.url)} (the embedded database in ${shown(EMBEDDED_DIR)}${server.started})`, stop: server.stop };
  }
  throw new NoDatabaseError(
    `no database to use: DATABASE_URL is not set and \`npm start\` has not run in this checkout (no ${shown(SETTINGS_FILE)}, ` +
      `no ${shown(EMBEDDED_DIR)}). Start the service with \`npm start\`, set DATABASE_URL, or pass --create-database to ` +
      `create an empty embedded database in ${shown(EMBEDDED_DIR)}.`,
  );
}
