import type { PairResult, SideResult } from "./paired.js";

// How the results' figures are written, the same in every table.

export const int = (n: number) => Math.round(n).toLocaleString("en-US");
export const ms = (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
export const ratio = (n: number) => `${n.toFixed(2)}×`;
export const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;
export const verdict = (met: boolean) => (met ? "met" : "**not met**");

export function http(r: SideResult): string {
  const postgres = r.postgresCpuUs === null ? "" : `, Postgres ${int(r.postgresCpuUs)} µs`;
  return `${int(r.requestsPerSecond)} req/s, p50 ${ms(r.p50Ms)}, p99 ${ms(r.p99Ms)}; CPU per request: server ${int(r.serverCpuUs)} µs${postgres}`;
}

export function pairRatio(pair: PairResult): string {
  return `${ratio(pair.ratio)} (rounds ${pair.roundRatios.map(ratio).join(", ")})`;
}
