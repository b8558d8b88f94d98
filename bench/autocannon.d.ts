// The part of autocannon (shipped without types) the benchmark uses.
declare module "autocannon" {
  interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface AutocannonRequest extends RequestParams {
    setupRequest?: (request: RequestParams) => RequestParams;
  }
  interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    requests?: AutocannonRequest[];
  }
  interface Histogram {
    p50: number;
    p99: number;
  }
  interface AutocannonResult {
    duration: number;
    latency: Histogram;
    requests: Histogram & { total: number };
    errors: number;
    statusCodeStats: Record<string, { count: number | string }>;
  }
  function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
  export default autocannon;
}
