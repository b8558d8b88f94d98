import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { configurationSettings } from "../core/config.js";
import { DATA_DIR } from "./local-env.js";

// What `npm start` gives its children (database URL, vendor base URLs and keys, public URLs, artifact directory
// and secrets, ...), kept in .data/ (mode 0600) while it runs and after, so every `svc` command, `svc mcp` started
// by a desktop host included, acts on the same service without being told anything but a credential.
export const SETTINGS_FILE = path.join(DATA_DIR, "local-settings.json");

export interface LocalSettings {
  // The embedded database's directory when `npm start` runs one (a command may start it again), else null.
  embedded_database: string | null;
  settings: Record<string, string>;
}

const SETTING_NAMES = new Set(configurationSettings().map((s) => s.name));

export async function writeLocalSettings(env: Record<string, string | undefined>, embeddedDatabase: string | null): Promise<void> {
  const settings = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => SETTING_NAMES.has(entry[0]) && entry[1] !== undefined),
  );
  const content: LocalSettings = { embedded_database: embeddedDatabase, settings };
  await mkdir(DATA_DIR, { recursive: true });
  // Written whole or not at all: a command reading it meanwhile sees the old file or the new one.
  const temporary = `${SETTINGS_FILE}.${process.pid}`;
  await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, SETTINGS_FILE);
}

export function readLocalSettings(): LocalSettings | null {
  if (!existsSync(SETTINGS_FILE)) return null;
  try {
    const parsed = JSON.parse(readFileSync(SETTINGS_FILE, "utf8")) as LocalSettings;
    return typeof parsed.settings === "object" && parsed.settings !== null ? parsed : null;
  } catch {
    return null;
  }
}
