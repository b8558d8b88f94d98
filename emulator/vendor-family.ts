import type { FastifyInstance } from "fastify";
import type { FaultQueue } from "./faults.js";
import type { FileStore } from "./file-store.js";
import type { RequestLog } from "./request-log.js";

export interface EmulatorContext {
  files: FileStore;
  faults: FaultQueue;
  requests: RequestLog;
  // Added before every submit answer, to make timing visible to the service.
  latencyMs: number;
}

// One vendor family's wire protocol. Its routes are mounted under `/<name>`, which is the family's base URL.
export interface VendorFamily {
  name: string;
  registerRoutes(app: FastifyInstance, context: EmulatorContext): void;
}
