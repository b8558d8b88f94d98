import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { answerArtifact, type ConditionalHeaders } from "../artifacts/http-response.js";
import type { ArtifactStore } from "../artifacts/store.js";
import { speechInputSchema } from "../capabilities/speech.js";
import { SPEECH_MODELS, type SpeechModel } from "../catalog/speech-models.js";
import { findPresetVoice, type PresetVoice } from "../catalog/voices.js";
import type { Clock } from "../clock.js";
import { ServiceError } from "../errors/index.js";
import { storeOutputs, type OutputStoreRuntime } from "../providers/output-storage.js";
import type { ProviderRegistry } from "../providers/registry.js";
import { ProviderFailure, type ProviderOutcome } from "../providers/types.js";

// A preset voice's stock sample: one short sentence spoken with it by the first live model of the voice's (the
// catalog's order), made once by the service itself on the first request for it and kept in the artifact store
// under a key of its own. It belongs to no tenant: no task, no hold or charge, no artifacts row (so retention
// never expires it), nothing in anyone's History. A new sentence or model makes a new key, so a stale sample is
// never served. The vendor call is the operator's, once per voice and store (and per process that races for it).

export const STOCK_SAMPLE_PREFIX = "voice-samples";
// A vendor that answers "pending" is polled this many times at most, each wait capped, within the deadline.
const POLLS = 30;
const MAX_POLL_WAIT_MS = 2000;
const SAMPLE_DEADLINE_MS = 60_000;

export const stockSampleSentence = (voice: PresetVoice) => `Hello, I am ${voice.name}. This is how I sound.`;

export interface StockSampleRuntime extends OutputStoreRuntime {
  providers: ProviderRegistry;
  isFamilyLive(family: SpeechModel["family"]): boolean;
  clock: Clock;
  artifacts: ArtifactStore;
}

// What the sidecar next to the bytes records, so a request reads 200 bytes of JSON rather than the database.
interface SampleFacts {
  storageKey: string;
  contentType: string;
  byteSize: number;
  sha256: string;
  createdAt: string;
}

function modelFor(core: StockSampleRuntime, voice: PresetVoice): SpeechModel {
  const model = SPEECH_MODELS.find((m) => voice.models.includes(m.id) && core.isFamilyLive(m.family) && core.providers.get(m.family));
  if (!model) throw new ServiceError("model_unavailable", `No live speech model speaks ${voice.voiceId} now, so its sample cannot be made.`);
  return model;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function stored(store: ArtifactStore, key: string): Promise<boolean> {
  const opened = await store.open(key, { start: 0, end: 0 });
  opened?.stream.destroy();
  return opened !== null;
}

export class StockVoiceSamples {
  // One making per voice at a time in this process: at most one entry per preset voice.
  private readonly making = new Map<string, Promise<SampleFacts>>();

  constructor(private readonly core: StockSampleRuntime) {}

  // The sample of a preset voice, made first if it is not stored yet.
  async open(voiceId: string, request: ConditionalHeaders & { method: "GET" | "HEAD" }): Promise<{ status: number; headers: Record<string, string>; stream: Readable | null }> {
    const voice = findPresetVoice(voiceId);
    if (!voice) throw new ServiceError("voice_not_found", `No preset voice "${voiceId}"; a cloned voice's sample is its clone task's preview artifact.`);
    const facts = await this.factsOf(voice);
    const answer = answerArtifact(
      { artifactId: `${voice.voiceId}-sample`, contentType: facts.contentType, byteSize: facts.byteSize, sha256: facts.sha256, createdAt: new Date(facts.createdAt) },
      request,
    );
    // The same sample for everyone: shared caches may keep it.
    answer.headers["cache-control"] = "public, max-age=86400";
    if (request.method === "HEAD" || answer.body === null) return { status: answer.status, headers: answer.headers, stream: null };
    const opened = await this.core.artifacts.open(facts.storageKey, answer.body.range);
    if (!opened) throw new ServiceError("artifact_not_found", `The sample of ${voice.voiceId} is gone from the store; ask again to make it anew.`);
    return { status: answer.status, headers: answer.headers, stream: opened.stream };
  }

  private async factsOf(voice: PresetVoice): Promise<SampleFacts> {
    const model = modelFor(this.core, voice);
    const version = createHash("sha256").update(`${model.id}\n${stockSampleSentence(voice)}`).digest("hex").slice(0, 16);
    const sidecar = `${STOCK_SAMPLE_PREFIX}/${voice.voiceId}/${version}.json`;
    const kept = await this.core.artifacts.open(sidecar);
    if (kept) {
      const facts = JSON.parse((await readAll(kept.stream)).toString("utf8")) as SampleFacts;
      if (await stored(this.core.artifacts, facts.storageKey)) return facts;
    }
    const running = this.making.get(voice.voiceId);
    if (running) return running;
    const made = this.make(voice, model, sidecar).finally(() => this.making.delete(voice.voiceId));
    this.making.set(voice.voiceId, made);
    return made;
  }

  private async make(voice: PresetVoice, model: SpeechModel, sidecar: string): Promise<SampleFacts> {
    const adapter = this.core.providers.get(model.family)!;
    const signal = AbortSignal.timeout(SAMPLE_DEADLINE_MS);
    const request = {
      taskId: `sample_${voice.voiceId}`,
      capability: "text_to_speech",
      model: model.id,
      input: speechInputSchema.parse({ voice: voice.voiceId, input: stockSampleSentence(voice), format: "mp3" }),
    };
    try {
      let outcome: ProviderOutcome = await adapter.submit(request, signal);
      for (let poll = 0; outcome.status === "pending" && adapter.poll && poll < POLLS; poll++) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(outcome.status === "pending" ? outcome.pollAfterMs : 0, MAX_POLL_WAIT_MS)));
        outcome = await adapter.poll(outcome.ref, request, signal);
      }
      const output = outcome.status === "done" ? outcome.outputs.find((o) => o.kind === "audio") : undefined;
      if (!output) throw new ServiceError("model_request_failed", `${model.id} made no sample for ${voice.voiceId}.`);
      const artifact = (await storeOutputs(this.core, `${STOCK_SAMPLE_PREFIX}/${voice.voiceId}`, [output], signal))[0]!;
      const facts: SampleFacts = {
        storageKey: artifact.storageKey,
        contentType: artifact.contentType,
        byteSize: artifact.byteSize,
        sha256: artifact.sha256,
        createdAt: this.core.clock().toISOString(),
      };
      await this.core.artifacts.put(sidecar, Buffer.from(JSON.stringify(facts)));
      return facts;
    } catch (error) {
      if (error instanceof ProviderFailure) throw new ServiceError(error.code === "unsupported_option" ? "model_request_failed" : error.code, `${voice.voiceId}'s sample could not be made: ${error.message}`);
      throw error;
    }
  }
}
