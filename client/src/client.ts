import { ServiceError } from "./errors.js";
import { CAPABILITY_PATHS } from "./generated/capabilities.js";
import type { JsonOperationId, OperationAnswer, OperationArguments } from "./operation-call.js";
import { operationRoute, routeWith } from "./operation-route.js";
import { Transport, type RequestSpec, type TransportOptions } from "./transport.js";
import type { Artifact, CapabilityId, CreateBody, CreatePath, CreditBalance, ListTasksQuery, Quote, Task, TaskList } from "./types.js";
import { MAX_SERVER_WAIT_SECONDS, waitForTaskEnd, type WaitOptions } from "./wait.js";
import { verifyWebhook } from "./webhooks.js";

export type ClientOptions = TransportOptions;

export interface CreateOptions {
  // The request's identity for 24 hours. One is generated per call when omitted; either way every retry of this
  // call sends the same one, and it is on a thrown ServiceError (idempotencyKey) to look the task up later.
  idempotencyKey?: string;
  // Prefer: wait=N: the 202 comes once the task has ended or after N seconds (at most 60).
  waitSeconds?: number;
  signal?: AbortSignal;
}

export interface Download {
  body: ReadableStream<Uint8Array>;
  contentType: string | null;
  byteLength: number | null;
}

const waitHeader = (seconds: number | undefined): Record<string, string> =>
  seconds === undefined ? {} : { prefer: `wait=${Math.max(0, Math.min(MAX_SERVER_WAIT_SECONDS, Math.floor(seconds)))}` };

function createPath(capabilityOrPath: CapabilityId | CreatePath): CreatePath {
  if (capabilityOrPath in CAPABILITY_PATHS) return CAPABILITY_PATHS[capabilityOrPath as CapabilityId];
  if (Object.values<string>(CAPABILITY_PATHS).includes(capabilityOrPath)) return capabilityOrPath as CreatePath;
  throw new TypeError(`${capabilityOrPath} is neither a capability id nor a task-creating path`);
}

// The media task service over HTTP, typed from its OpenAPI document. No dependency beyond the platform's fetch,
// Web Crypto and streams (Node 20+, browsers, Deno, Bun).
export class MediaTaskClient {
  readonly webhooks = { verify: verifyWebhook };
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
  }

  // Creates a task (202, queued, or ended when waitSeconds let it). Retryable failures (no answer, 429, 5xx,
  // request_in_progress…) are retried with backoff under one Idempotency-Key: a retry of a create that did reach
  // the service answers that same task, never a second one.
  async create<T extends CapabilityId | CreatePath>(capabilityOrPath: T, body: CreateBody<T>, options: CreateOptions = {}): Promise<Task> {
    const idempotencyKey = options.idempotencyKey ?? crypto.randomUUID();
    try {
      const answer = await this.transport.json<Task>({
        method: "POST",
        path: createPath(capabilityOrPath),
        body,
        headers: { "idempotency-key": idempotencyKey, ...waitHeader(options.waitSeconds) },
        signal: options.signal,
      });
      return answer.body;
    } catch (error) {
      if (error instanceof ServiceError) error.idempotencyKey = idempotencyKey;
      throw error;
    }
  }

  // Until the task ends (server wait, then the event stream): the ended envelope, whatever its status.
  wait(task: Task | string, options?: WaitOptions): Promise<Task> {
    return waitForTaskEnd(this.transport, task, options);
  }

  // create, then wait.
  async run<T extends CapabilityId | CreatePath>(capabilityOrPath: T, body: CreateBody<T>, options: CreateOptions & WaitOptions = {}): Promise<Task> {
    return this.wait(await this.create(capabilityOrPath, body, { ...options, waitSeconds: options.waitSeconds ?? options.serverWaitSeconds ?? MAX_SERVER_WAIT_SECONDS }), options);
  }

  async getTask(taskId: string, options: { waitSeconds?: number; signal?: AbortSignal } = {}): Promise<Task> {
    const route = operationRoute("getTask", { task_id: taskId });
    return (await this.transport.json<Task>({ ...route, headers: waitHeader(options.waitSeconds), signal: options.signal })).body;
  }

  async cancel(taskId: string, options: { reason?: string; signal?: AbortSignal } = {}): Promise<Task> {
    const body = options.reason === undefined ? {} : { reason: options.reason };
    return (await this.transport.json<Task>({ ...operationRoute("cancelTask", { task_id: taskId }), body, signal: options.signal })).body;
  }

  // What the create would do (model, price, hold), or its refusal as a ServiceError; nothing is held or created.
  async quote<C extends CapabilityId>(capability: C, body: CreateBody<C>, options: { signal?: AbortSignal } = {}): Promise<Quote> {
    return (await this.transport.json<Quote>({ ...operationRoute("createQuote"), body: { ...body, capability }, signal: options.signal })).body;
  }

  async listTasksPage(query: ListTasksQuery & { cursor?: string } = {}, options: { signal?: AbortSignal } = {}): Promise<TaskList> {
    return (await this.transport.json<TaskList>({ ...operationRoute("listTasks"), query, signal: options.signal })).body;
  }

  // Every task matching the query, newest first, following next_cursor page by page.
  async *listTasks(query: ListTasksQuery = {}, options: { signal?: AbortSignal } = {}): AsyncGenerator<Task> {
    let cursor: string | undefined;
    do {
      const page = await this.listTasksPage({ ...query, ...(cursor !== undefined ? { cursor } : {}) }, options);
      yield* page.data;
      cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
    } while (cursor !== undefined);
  }

  // The task an Idempotency-Key created within the last 24 hours, for this tenant; null when there is none.
  async findByIdempotencyKey(idempotencyKey: string, options: { signal?: AbortSignal } = {}): Promise<Task | null> {
    const route = operationRoute("listTasks");
    const page = await this.transport.json<TaskList>({ ...route, query: { idempotency_key: idempotencyKey }, signal: options.signal });
    return page.body.data[0] ?? null;
  }

  async credits(options: { signal?: AbortSignal } = {}): Promise<CreditBalance> {
    return (await this.transport.json<CreditBalance>({ ...operationRoute("getCredits"), signal: options.signal })).body;
  }

  // Any operation that answers JSON, by its id in the service's document and typed from it: its path parameters,
  // query and body in, its success answer out (the task flows above have methods of their own). A read is retried
  // like every call; a write is sent once, since a retry of one whose answer was lost could apply it twice.
  async call<Id extends JsonOperationId>(operationId: Id, ...[request]: OperationArguments<Id>): Promise<OperationAnswer<Id>> {
    // The typed request read as its parts: the compiler cannot see through the generic operation's types here.
    const parts = (request ?? {}) as { path?: Record<string, string>; query?: RequestSpec["query"]; body?: unknown; signal?: AbortSignal };
    const route = routeWith(operationId, parts.path ?? {});
    const once = route.method !== "GET";
    return (await this.transport.json<OperationAnswer<Id>>({ ...route, query: parts.query, body: parts.body, signal: parts.signal, once })).body;
  }

  // An artifact's bytes as a stream (downloadArtifact, at the signed URL the task gave). Its signed URL is the
  // credential, so no API key is sent (it may be a CDN's address); a URL past its url_expires_at is refused: read
  // the task again for fresh ones.
  async downloadStream(artifact: Pick<Artifact, "url"> | string, options: { signal?: AbortSignal } = {}): Promise<Download> {
    const url = typeof artifact === "string" ? artifact : artifact.url;
    const response = await this.transport.open({ method: "GET", path: url, authenticated: false, headers: { accept: "*/*" }, signal: options.signal });
    if (!response.body) throw new TypeError(`${url} answered without a body`);
    const length = response.headers.get("content-length");
    return { body: response.body, contentType: response.headers.get("content-type"), byteLength: length === null ? null : Number(length) };
  }

  // An artifact's bytes, whole.
  async download(artifact: Pick<Artifact, "url"> | string, options: { signal?: AbortSignal } = {}): Promise<Uint8Array> {
    const { body } = await this.downloadStream(artifact, options);
    return new Uint8Array(await new Response(body).arrayBuffer());
  }
}

export function createClient(options: ClientOptions): MediaTaskClient {
  return new MediaTaskClient(options);
}
