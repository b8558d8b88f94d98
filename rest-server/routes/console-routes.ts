import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { FastifyReply } from "fastify";
import { ServiceError, type Core } from "../../core/index.js";
import type { HandWrittenRoutes } from "./hand-written-route.js";

// The web console (console/, bundled by `npm run build` into dist/console): index.html at `/`, its other files at
// `/console/{file}`. Two rows of the operations table, so the console never shadows
// /v1/*, /healthz or anything else, and an unknown file gets the API's JSON 404. The files are read once at start
// (a few hundred KB).

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  // Try's examples (examples.json) and their outputs.
  ".json": "application/json; charset=utf-8",
  ".png": "image/png",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".mp4": "video/mp4",
};

interface ConsoleFile {
  body: Buffer;
  contentType: string;
  etag: string;
}

// dist/console beside the package.json above this file, whether it runs from its source (tests, tsx) or from dist/.
export function consoleDirectory(): string | null {
  for (let dir = import.meta.dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) {
      const built = path.join(dir, "dist", "console");
      return existsSync(path.join(built, "index.html")) ? built : null;
    }
  }
  return null;
}

function loadFiles(dir: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  for (const name of readdirSync(dir)) {
    const contentType = CONTENT_TYPES[path.extname(name)];
    if (!contentType) continue;
    const body = readFileSync(path.join(dir, name));
    files.set(name, { body, contentType, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` });
  }
  return files;
}

// Only this origin: scripts, styles and API calls. Images and media may also come from the public base URL, the
// address artifact download URLs are signed for (the same service, possibly under another host name than the one
// the page was opened with); blob: shows an upload's preview before it is sent.
function contentSecurityPolicy(publicBaseUrl: string): string {
  const self = `'self' ${new URL(publicBaseUrl).origin}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    `img-src ${self} blob:`,
    `media-src ${self} blob:`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function consoleRoutes(core: Core): HandWrittenRoutes<"getConsole" | "getConsoleFile"> {
  const dir = consoleDirectory();
  const csp = contentSecurityPolicy(core.config.publicBaseUrl);
  const files = dir ? loadFiles(dir) : new Map<string, ConsoleFile>();

  const send = (file: ConsoleFile, ifNoneMatch: string | undefined, reply: FastifyReply) => {
    // Revalidated on every load (no-cache): a rebuilt console is picked up at once, an unchanged one costs a 304.
    reply
      .header("Cache-Control", "no-cache")
      .header("ETag", file.etag)
      .header("Content-Security-Policy", csp)
      .header("X-Content-Type-Options", "nosniff")
      .header("Referrer-Policy", "no-referrer");
    if (ifNoneMatch === file.etag) return reply.status(304).send();
    return reply.type(file.contentType).send(file.body);
  };

  return {
    getConsole: {
      handler: async (request, reply) => {
        const index = files.get("index.html");
        if (!index) {
          return reply
            .status(503)
            .type("text/plain; charset=utf-8")
            .send("The web console is not built: run `npm run build` (or `npm start`, which builds it), then reload.\n");
        }
        return send(index, request.headers["if-none-match"], reply);
      },
    },
    getConsoleFile: {
      handler: async (request, reply) => {
        const name = request.params.file;
        const file = name === "index.html" ? undefined : files.get(name);
        if (!file) throw new ServiceError("not_found", `The console has no file ${name}.`);
        return send(file, request.headers["if-none-match"], reply);
      },
    },
  };
}
