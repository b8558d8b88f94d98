import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { generateSigningKey } from "../core/index.js";
import { DATA_DIR } from "./local-env.js";

// OAUTH_SIGNING_KEY, the private key of the service's own issuer: generated once and kept in the data folder (unless
// set), so `npm start`'s MCP server and authorization server, `npx svc token` and `svc mcp` share it.
export async function localSigningKey(): Promise<string> {
  if (process.env.OAUTH_SIGNING_KEY) return process.env.OAUTH_SIGNING_KEY;
  const file = path.join(DATA_DIR, "oauth-signing-key.json");
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  await mkdir(DATA_DIR, { recursive: true });
  const key = JSON.stringify(await generateSigningKey());
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return key;
}
