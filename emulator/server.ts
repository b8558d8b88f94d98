import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { createHttpMetrics, UNMATCHED_ROUTE } from "../core/observability/http-metrics.js";
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
}

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
  // Closing must not wait for requests held open by the hang fault.
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const metrics = createHttpMetrics();
  app.addHook("onResponse", async (request, reply) => {
    metrics.observe(request.routeOptions.url ?? UNMATCHED_ROUTE, request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
  registerControlRoutes(app, context, VENDOR_FAMILIES.map((family) => family.name), metrics.registry);
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
