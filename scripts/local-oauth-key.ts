import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { generateDevSigningKey } from "../core/index.js";
import { DATA_DIR } from "./local-env.js";

// OAUTH_DEV_SIGNING_KEY, the local development issuer's private key: generated once and kept in the data folder
// (unless set), so `npm start`'s MCP server verifies what `npx svc token` signs.
export async function localDevSigningKey(): Promise<string> {
  if (process.env.OAUTH_DEV_SIGNING_KEY) return process.env.OAUTH_DEV_SIGNING_KEY;
  const file = path.join(DATA_DIR, "oauth-dev-signing-key.json");
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  await mkdir(DATA_DIR, { recursive: true });
  const key = JSON.stringify(await generateDevSigningKey());
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return key;
}
