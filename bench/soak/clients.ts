import { randomUUID } from "node:crypto";
import { sleep } from "../stats.js";
import type { Hosts } from "./hosts.js";

// The soak's tenants as API clients: each creates tasks over REST with a new Idempotency-Key and, when the answer
// is lost (the REST server killed, a 5xx, a refused connection), sends the same request again under the same key
// until it is answered, as a careful client does. Every task id answered is kept for the checks.

export interface Tenant {
  name: string;
  tenantId: string;
  apiKey: string;
  noisy: boolean;
}

export interface Created {
  tenant: string;
  taskId: string;
  kind: string;
}

type Request = { kind: string; path: string; body: Record<string, unknown> };

// The mix a quiet tenant draws from: sync and async vendors, media inputs fetched by the worker, long videos.
function quietRequest(hosts: Hosts, tenant: Tenant): Request {
  const callback_url = hosts.hookUrl(tenant.name);
  const requests: Request[] = [
    { kind: "speech", path: "/v1/audio/speech", body: { voice: "en_female_aria", input: "Hello from the soak.", callback_url } },
    { kind: "enhance", path: "/v1/videos/prompts/enhance", body: { prompt: "a red kite over a windy beach", duration: 5, aspect_ratio: "16:9", callback_url } },
    { kind: "image", path: "/v1/images/generations", body: { prompt: "a red kite over a windy beach", callback_url } },
    {
      kind: "understanding",
      path: "/v1/images/responses",
      body: { model: "vendorA-M3", prompt: "What colour is this?", images: [{ type: "url", url: hosts.imageUrl }], callback_url },
    },
    { kind: "video", path: "/v1/videos/text-to-video", body: { model: "vendorA-h3", prompt: "a slow pan across a mountain lake at dawn", callback_url } },
  ];
  return requests[Math.floor(Math.random() * requests.length)] as Request;
}

// The noisy tenant: cheap tasks as fast as it is allowed, and every so often an image whose URL drips, whose
// callback goes to its slow receiver.
function noisyRequest(hosts: Hosts, tenant: Tenant, n: number, dripEvery: number): Request {
  if (n % dripEvery === 0) {
    return {
      kind: "drip",
      path: "/v1/images/responses",
      body: { model: "vendorA-M3", prompt: "What is this?", images: [{ type: "url", url: hosts.dripUrl }], callback_url: hosts.hookUrl(tenant.name) },
    };
  }
  return { kind: "enhance", path: "/v1/videos/prompts/enhance", body: { prompt: "a kite", duration: 5, aspect_ratio: "16:9" } };
}

export interface ClientRun {
  created: Created[];
  // Requests answered with something else than 202 (each retried under its key until it was).
  retries: number;
  stop(): Promise<void>;
}

export function startClients(restUrl: () => string, hosts: Hosts, tenants: readonly Tenant[], pace: { quietEveryMs: number; noisyPerSecond: number; noisyDripEvery: number }): ClientRun {
  const created: Created[] = [];
  let retries = 0;
  let running = true;

  async function create(tenant: Tenant, request: Request): Promise<void> {
    const key = randomUUID();
    for (;;) {
      try {
        const response = await fetch(`${restUrl()}${request.path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${tenant.apiKey}`, "content-type": "application/json", "idempotency-key": key },
          body: JSON.stringify(request.body),
        });
        const body = (await response.json()) as { task_id?: string; error?: { code: string } };
        if (response.status === 202 && body.task_id) {
          created.push({ tenant: tenant.name, taskId: body.task_id, kind: request.kind });
          return;
        }
        if (response.status < 500 && response.status !== 409 && response.status !== 429) {
          throw new Error(`${tenant.name} ${request.path}: HTTP ${response.status} ${JSON.stringify(body)}`);
        }
      } catch (error) {
        if (error instanceof Error && error.message.startsWith(tenant.name)) throw error;
      }
      retries++;
      await sleep(200 + Math.random() * 800);
    }
  }

  async function quiet(tenant: Tenant): Promise<void> {
    while (running) {
      await create(tenant, quietRequest(hosts, tenant));
      await sleep(pace.quietEveryMs * (0.5 + Math.random()));
    }
  }

  // SOAK_NOISY_PER_SECOND=0 leaves the noisy tenant silent: the quiet tenants' figures without a flood.
  async function noisy(tenant: Tenant): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    for (let n = 1; running && pace.noisyPerSecond > 0; n++) {
      const sending = create(tenant, noisyRequest(hosts, tenant, n, pace.noisyDripEvery)).finally(() => inFlight.delete(sending));
      inFlight.add(sending);
      await sleep(1000 / pace.noisyPerSecond);
    }
    await Promise.all(inFlight);
  }

  const loops = tenants.map((tenant) => (tenant.noisy ? noisy(tenant) : quiet(tenant)));
  const done = Promise.all(loops);
  return {
    created,
    get retries() {
      return retries;
    },
    async stop() {
      running = false;
      await done;
    },
  };
}
