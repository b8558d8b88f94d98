import type { Config } from "../core/index.js";

// The largest MCP message accepted: an upload at the size limit, base64-encoded (4 characters per 3 bytes),
// plus room for the JSON-RPC envelope.
export function maxMessageBytes(config: Config): number {
  return Math.ceil(config.assetUploadMaxBytes / 3) * 4 + 1024 * 1024;
}
