import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Where a checkout keeps what running it locally needs: the data folder beside package.json (this module runs
// from scripts/ as source and from dist/scripts/ once built, so the root is found upwards), and secrets a
// deployment would configure, generated once and kept there.
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = findProjectRoot();
export const DATA_DIR = path.join(PROJECT_ROOT, ".data");
export const DEV_KEY_FILE = path.join(DATA_DIR, "dev-api-key");

// A path as a person in the checkout would type it.
export function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") ? relative : file;
}

async function generatedOnce(variable: string, fileName: string): Promise<string> {
  const given = process.env[variable];
  if (given) return given;
  const file = path.join(DATA_DIR, fileName);
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  await mkdir(DATA_DIR, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

// ARTIFACT_URL_SECRET signs download URLs.
export function localSecret(): Promise<string> {
  return generatedOnce("ARTIFACT_URL_SECRET", "artifact-url-secret");
}

// CALLBACK_SECRET_ENCRYPTION_KEY encrypts callback signing secrets at rest (32 bytes, base64url).
export function localCallbackSecretKey(): Promise<string> {
  return generatedOnce("CALLBACK_SECRET_ENCRYPTION_KEY", "callback-secret-encryption-key");
}
