import autocannon from "autocannon";

// One HTTP load run with autocannon: a fixed number of connections, each sending its next request as soon as the
// previous one is answered, for a duration or a number of requests. `next` builds each request, so every request
// can carry its own Idempotency-Key or task id.

export interface LoadRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds?: number;
  amount?: number;
  next(): LoadRequest;
  // The status every answer must have; any other answer makes the run invalid rather than quietly faster.
  expectStatus: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  completed: number;
  seconds: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const first = options.next();
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    timeout: 30,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.durationSeconds ?? 10 }),
    requests: [{ ...first, setupRequest: () => options.next() }],
  });
  const statuses = Object.entries(result.statusCodeStats).map(([status, { count }]) => `${status}×${Number(count)}`);
  const unexpected = Object.keys(result.statusCodeStats).filter((status) => Number(status) !== options.expectStatus);
  if (result.errors > 0 || unexpected.length > 0) {
    throw new Error(`load on ${first.method} ${first.path} was not clean: ${result.errors} errors, statuses ${statuses.join(", ")}`);
  }
  const completed = Number(result.statusCodeStats[String(options.expectStatus)]?.count ?? 0);
  return {
    requestsPerSecond: completed / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    completed,
    seconds: result.duration,
  };
}
