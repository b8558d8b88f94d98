import type { AddressInfo } from "node:net";
import { createHttpMetrics, silentLogger } from "../core/index.js";
import { createHttpFace } from "../http-face/face.js";
import { registerControlRoutes } from "./control-routes.js";
import { vendorAFamily } from "./families/vendor-a.js";
import { vendorBFamily } from "./families/vendor-b.js";
import { vendorCFamily } from "./families/vendor-c.js";
import { vendorDFamily } from "./families/vendor-d.js";
import { vendorEFamily } from "./families/vendor-e.js";
import { vendorFFamily } from "./families/vendor-f.js";
import { vendorGFamily } from "./families/vendor-g.js";
import { FaultQueue } from "./faults.js";
import { FileStore } from "./file-store.js";
import { RequestLog } from "./request-log.js";
import type { EmulatorContext, VendorFamily } from "./vendor-family.js";

const VENDOR_FAMILIES: readonly VendorFamily[] = [vendorAFamily, vendorBFamily, vendorCFamily, vendorDFamily, vendorEFamily, vendorFFamily, vendorGFamily];

export interface EmulatorOptions {
  host?: string;
  // 0 picks a free port.
  port?: number;
  latencyMs?: number;
  // The API keys the emulated vendors accept; any key when absent. A call with another key reaches its family
  // without it, and is answered as that vendor answers a call without a key (tests of a wrong key).
  apiKeys?: readonly string[];
}

// Where the families' vendors take a key, and the scheme words before it.
const CREDENTIAL_HEADERS = ["authorization", "x-goog-api-key", "x-api-key"] as const;
const credentialOf = (value: string) => value.replace(/^(Bearer|Key)\s+/i, "").trim();

export interface RunningEmulator {
  // Such as http://127.0.0.1:43210; a family's base URL is this plus `/<family>`.
  url: string;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const context: EmulatorContext = {
    files: await FileStore.create(),
    faults: new FaultQueue(),
    requests: new RequestLog(),
    latencyMs: options.latencyMs ?? 0,
  };
  // The same face as the service's processes. Nothing to wait for once it listens: it has no database, and every
  // family is served from memory. Closing must not wait for requests held open by the hang fault.
  const app = createHttpFace({
    log: silentLogger(),
    metrics: createHttpMetrics(),
    readiness: async () => ({ ready: true, checks: {} }),
    server: { forceCloseConnections: true },
  });
  if (options.apiKeys !== undefined) {
    const accepted = new Set(options.apiKeys);
    app.addHook("onRequest", async (request) => {
      for (const header of CREDENTIAL_HEADERS) {
        const value = request.headers[header];
        if (typeof value === "string" && !accepted.has(credentialOf(value))) delete request.headers[header];
      }
    });
  }
  registerControlRoutes(app, context, VENDOR_FAMILIES.map((family) => family.name));
  for (const family of VENDOR_FAMILIES) {
    await app.register(async (scope) => family.registerRoutes(scope, context), { prefix: `/${family.name}` });
  }

  try {
    await app.listen({ host: options.host ?? "127.0.0.1", port: options.port ?? 0 });
  } catch (error) {
    await context.files.remove();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    url: urlOf(app.server.address() as AddressInfo),
    close() {
      closing ??= app.close().then(() => context.files.remove());
      return closing;
    },
  };
}

// A wildcard listen address is reachable through loopback, which is what a URL handed to a client needs.
function urlOf(address: AddressInfo): string {
  if (address.address === "0.0.0.0") return `http://127.0.0.1:${address.port}`;
  if (address.address === "::") return `http://[::1]:${address.port}`;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
