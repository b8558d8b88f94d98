import { hostname } from "node:os";
import { pino, stdSerializers, type DestinationStream, type Logger } from "pino";
import type { Config } from "../config.js";
import { REDACTED, redactUrl, withoutQueryParameters } from "./log-redaction.js";

export type { Logger } from "pino";

// Where credentials sit in the objects the processes log (Fastify's request, headers passed along, options):
// pino removes them before a line is written, whatever else the line holds.
const SECRET_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "req.headers['x-api-key']",
  "headers.authorization",
  "headers.cookie",
  "authorization",
  "*.authorization",
  "apiKey",
  "*.apiKey",
  "api_key",
  "*.api_key",
  "secret",
  "*.secret",
  "token",
  "*.token",
  "access_token",
  "*.access_token",
  "content_base64",
  "*.content_base64",
];

interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  host?: string;
  socket?: { remotePort?: number };
}

// Fastify's request line without the credentials a URL can carry (a signed artifact URL's signature).
function requestSerializer(request: LoggedRequest) {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactUrl(request.url),
    host: request.host,
    remote_address: request.ip,
    remote_port: request.socket?.remotePort,
  };
}

function errorSerializer(error: Error) {
  return withoutQueryParameters(stdSerializers.err(error), error);
}

// One JSON logger per process, shared by Fastify (its request lines) and core (task lines). `process` names the
// kind of process (rest, mcp, worker) on every line; `destination` is stdout unless a test captures the lines.
export function createLogger(
  config: Pick<Config, "logLevel">,
  bindings: { process: string } & Record<string, string>,
  destination?: DestinationStream,
): Logger {
  const options = {
    level: config.logLevel,
    base: { pid: process.pid, hostname: hostname(), ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    redact: { paths: SECRET_PATHS, censor: REDACTED },
    serializers: { req: requestSerializer, err: errorSerializer },
  };
  return destination ? pino(options, destination) : pino(options);
}

// Library use (the CLI, tests): nothing is written, so a command's JSON output stays clean.
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
