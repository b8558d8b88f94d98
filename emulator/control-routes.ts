import type { FastifyInstance } from "fastify";
import { faultRequestSchema } from "./faults.js";
import type { EmulatorContext } from "./vendor-family.js";

// The emulator's own endpoints, beside the probes of its HTTP face: the hooks tests use to script faults and count
// vendor calls.
export function registerControlRoutes(app: FastifyInstance, context: EmulatorContext, familyNames: readonly string[]): void {
  // Clients often send a JSON content type on bodiless DELETEs; an empty body is simply no body here.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      done(Object.assign(new Error("body is not valid JSON"), { statusCode: 400 }), undefined);
    }
  });

  app.post("/_emulator/faults", (request, reply) => {
    const parsed = faultRequestSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ error: parsed.error.message });
    if (!familyNames.includes(parsed.data.family)) {
      return reply.code(400).send({ error: `unknown family ${parsed.data.family}; known: ${familyNames.join(", ")}` });
    }
    context.faults.add(parsed.data);
    return reply.code(201).send({ queued: parsed.data });
  });

  app.delete("/_emulator/faults", () => {
    context.faults.clear();
    return { ok: true };
  });

  app.get("/_emulator/requests", () => context.requests.list());

  app.delete("/_emulator/requests", () => {
    context.requests.clear();
    return { ok: true };
  });
}
