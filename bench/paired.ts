import type { Core } from "../core/index.js";
import { CpuMeter } from "./cpu.js";
import { runLoad, type LoadOptions, type LoadResult } from "./load.js";
import { SETTINGS } from "./settings.js";
import { percentile } from "./stats.js";

// A load on the service measured against the same load on its reference, in alternating rounds: both are warmed
// up, then each round runs the reference and the service back to back. Whatever else the machine is doing shifts
// both sides of a round alike, so the ratio holds up better than two measurements minutes apart would.

export interface Side {
  // The process serving the load, whose CPU time is counted.
  pid: number;
  // The core whose database's backends are counted, when not the pair's (each side on a database of its own).
  core?: Core;
  load: Omit<LoadOptions, "durationSeconds" | "amount">;
}

export interface SideResult extends LoadResult {
  // CPU time per request, in microseconds: the serving process, and the run database's Postgres backends.
  serverCpuUs: number;
  postgresCpuUs: number | null;
}

export interface PairResult {
  reference: SideResult;
  service: SideResult;
  ratio: number;
  roundRatios: number[];
}

type Round = LoadResult & { serverMs: number; postgresMs: number | null };

async function measureSide(core: Core, side: Side): Promise<Round> {
  const meter = new CpuMeter(side.core ?? core, side.pid);
  await meter.start();
  const result = await runLoad({ ...side.load, durationSeconds: SETTINGS.roundSeconds });
  return { ...result, ...meter.stop() };
}

function combine(rounds: Round[]): SideResult {
  const completed = rounds.reduce((sum, r) => sum + r.completed, 0);
  const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0);
  const postgres = rounds.every((r) => r.postgresMs !== null) ? rounds.reduce((sum, r) => sum + (r.postgresMs ?? 0), 0) : null;
  return {
    requestsPerSecond: completed / seconds,
    p50Ms: percentile(rounds.map((r) => r.p50Ms), 50),
    p99Ms: percentile(rounds.map((r) => r.p99Ms), 50),
    completed,
    seconds,
    serverCpuUs: (rounds.reduce((sum, r) => sum + r.serverMs, 0) * 1000) / completed,
    postgresCpuUs: postgres === null ? null : (postgres * 1000) / completed,
  };
}

export async function measurePair(core: Core, reference: Side, service: Side): Promise<PairResult> {
  for (const side of [reference, service]) await runLoad({ ...side.load, durationSeconds: SETTINGS.warmupSeconds });
  const referenceRounds: Round[] = [];
  const serviceRounds: Round[] = [];
  for (let round = 0; round < SETTINGS.rounds; round++) {
    referenceRounds.push(await measureSide(core, reference));
    serviceRounds.push(await measureSide(core, service));
  }
  const referenceResult = combine(referenceRounds);
  const serviceResult = combine(serviceRounds);
  return {
    reference: referenceResult,
    service: serviceResult,
    ratio: serviceResult.requestsPerSecond / referenceResult.requestsPerSecond,
    roundRatios: serviceRounds.map((r, i) => r.requestsPerSecond / (referenceRounds[i]?.requestsPerSecond ?? Number.NaN)),
  };
}
