import { createReadStream } from "node:fs";
import { contentTypeOfFormat } from "../media/content-types.js";
import { VENDOR_OUTPUT_CAPS } from "../media/limits.js";
import { MediaProbeError, probeMediaFile, type MediaProbe } from "../media/probe.js";
import { sniffMediaType } from "../media/sniff.js";
import { SpoolTooLarge, spoolDirectory, spoolStream, type HandedFile, type Spooled } from "../media/spool.js";
import type { ArtifactStore } from "../artifacts/store.js";
import type { Config } from "../config.js";
import type { IdGenerator } from "../ids.js";
import type { OutboundPolicy } from "../net/index.js";
import { findCapability } from "../capabilities/table.js";
import { findModel } from "../catalog/registry.js";
import { findPrice, priceLine } from "../credits/pricing.js";
import { downloadOutput } from "../providers/http.js";
import { ProviderFailure, type ProviderOutput, type ProviderResult } from "../providers/types.js";
import type { StoredUsage } from "./envelope.js";
import type { NewArtifact } from "../db/statements/insert-artifacts.js";
import type { TaskRow } from "./repository.js";

// Spelled as a mapped type, not the MediaProbe interface itself, so that it is a JSON record as the artifact row keeps it.
type StoredMedia = { [K in keyof MediaProbe]: MediaProbe[K] } & { format: string; role: string | null };

// The parts of the runtime storing an output uses.
export interface OutputStoreRuntime {
  ids: IdGenerator;
  artifacts: ArtifactStore;
  config: Pick<Config, "providers" | "outboundAllowLoopbackHttp">;
}

// A configured vendor's own address is trusted as configuration is (the emulator answers from loopback in
// development); any other output URL is held to the outbound policy like a caller's.
function outputPolicy(core: OutputStoreRuntime, url: string): OutboundPolicy {
  const origin = URL.canParse(url) ? new URL(url).origin : null;
  const fromVendor = Object.values(core.config.providers).some((endpoint) => URL.canParse(endpoint.baseUrl) && new URL(endpoint.baseUrl).origin === origin);
  return { allowLoopbackHttp: core.config.outboundAllowLoopbackHttp || fromVendor };
}

// A file the adapter made (ProviderOutput.file), spooled as a download is: measured, hashed and held to the same cap.
async function spoolHandedFile(file: HandedFile, path: string, maxBytes: number): Promise<Spooled> {
  try {
    return await spoolStream(createReadStream(file.path), path, maxBytes);
  } catch (error) {
    if (error instanceof SpoolTooLarge) throw new ProviderFailure("model_output_invalid", `the model's output is larger than ${maxBytes} bytes`, false);
    throw error;
  }
}

// Stores a finished job's outputs in order (storeOutput). The files adapters handed over are removed once all are
// stored, or when one fails or the work is aborted.
export async function storeOutputs(core: OutputStoreRuntime, keyPrefix: string, outputs: readonly ProviderOutput[], signal: AbortSignal): Promise<NewArtifact[]> {
  try {
    const stored: NewArtifact[] = [];
    for (const output of outputs) stored.push(await storeOutput(core, keyPrefix, output, signal));
    return stored;
  } finally {
    await Promise.all(outputs.map((output) => output.file?.dispose()));
  }
}

// Downloads one vendor output (at most 3 attempts), or copies the file its adapter handed over, to a local file,
// checks that it decodes, and streams it into the artifact store under `keyPrefix` (a task's `<tenant>/<task>`):
// the worker never holds the whole output in memory.
async function storeOutput(core: OutputStoreRuntime, keyPrefix: string, output: ProviderOutput, signal: AbortSignal): Promise<NewArtifact> {
  const directory = await spoolDirectory();
  try {
    const maxBytes = VENDOR_OUTPUT_CAPS[output.kind];
    const spooled = output.file
      ? await spoolHandedFile(output.file, directory.file("output"), maxBytes)
      : await downloadOutput(output.url, signal, {
          file: directory.file("output"),
          maxBytes,
          policy: outputPolicy(core, output.url),
          ...(output.headers ? { headers: output.headers } : {}),
        });
    const format = output.format ?? "bin";
    let probe: MediaProbe;
    try {
      const hint = format === "pcm" ? ({ format: "pcm", sampleRate: output.sampleRate ?? 32000 } as const) : undefined;
      probe = await probeMediaFile(spooled.path, spooled.size, hint);
    } catch (error) {
      if (error instanceof MediaProbeError) {
        throw new ProviderFailure("model_output_invalid", `the model's output is not decodable ${output.kind}: ${error.message}`, false);
      }
      throw error;
    }
    if ((output.kind === "image" || output.kind === "video") && !(probe.width && probe.height)) {
      throw new ProviderFailure("model_output_invalid", `the model's ${output.kind} output has no picture (a truncated file?)`, false);
    }
    const id = core.ids.artifact();
    const storageKey = `${keyPrefix}/${id}.${format}`;
    await core.artifacts.putFile(storageKey, spooled.path, spooled);
    const media: StoredMedia = { format, role: output.role ?? null, ...probe };
    return {
      id,
      kind: output.kind,
      // What the bytes are, as served; the vendor's word only where the bytes carry no signature (raw PCM).
      contentType: sniffMediaType(spooled.head)?.contentType ?? contentTypeOfFormat(format),
      byteSize: spooled.size,
      sha256: spooled.sha256,
      storageKey,
      media,
    };
  } finally {
    await directory.dispose();
  }
}

function mediaOf(artifact: NewArtifact): StoredMedia {
  return artifact.media as StoredMedia;
}

// A postpaid quote's lines re-priced from the measured counters (the capture stays capped by the hold): the meters
// its capability's entry names; a capability this build no longer has keeps its quote.
function repricePostpaid(task: TaskRow, quote: StoredUsage, counters: StoredUsage["counters"]): StoredUsage {
  const prices = findModel(task.resolvedModel)?.prices ?? [];
  const capability = findCapability(task.capability);
  const meters = capability?.billingMode === "postpaid" ? capability.postpaidMeters : {};
  const lines = quote.lines.map((line) => {
    const counter = meters[line.meter];
    const measured = counter === undefined ? undefined : counters[counter];
    if (measured === undefined) return line;
    const priced = priceLine(findPrice(prices, line.meter), BigInt(measured));
    return { ...line, quantity: String(measured), amount_micro: String(priced.amountMicro) };
  });
  return { counters, lines, total_micro: String(lines.reduce((sum, l) => sum + BigInt(l.amount_micro), 0n)) };
}

// Usage counters come from the stored bytes (and from the vendor for what bytes cannot tell). Prepaid work is
// billed its admission quote; postpaid work is re-priced from what was measured.
export function measuredUsage(task: TaskRow, stored: NewArtifact[], result: ProviderResult): StoredUsage {
  const quote = task.quote as StoredUsage;
  const counters = { ...quote.counters };
  const images = stored.filter((a) => a.kind === "image" && mediaOf(a).role !== "last_frame");
  const videos = stored.filter((a) => a.kind === "video");
  const audio = stored.filter((a) => a.kind === "audio");
  if (images.length > 0) {
    counters.image_count = images.length;
    counters.image_pixels = images.reduce((sum, a) => sum + (mediaOf(a).width ?? 0) * (mediaOf(a).height ?? 0), 0);
  }
  if (videos.length > 0) {
    const seconds = Math.ceil(videos.reduce((sum, a) => sum + mediaOf(a).durationSeconds, 0));
    counters.output_video_seconds = seconds;
    counters.video_seconds = seconds;
  }
  if (audio.length > 0) counters.audio_seconds = Math.ceil(audio.reduce((sum, a) => sum + mediaOf(a).durationSeconds, 0));
  const measured = { ...counters, ...result.measured };
  return task.billingMode === "postpaid" ? repricePostpaid(task, quote, measured) : { ...quote, counters: measured };
}

// The output as the capability's entry shapes it (its `type`, whether its artifacts are also `clips[]`); a
// capability this build no longer has is typed by its first artifact's kind.
export function outputOf(task: TaskRow, stored: NewArtifact[], result: ProviderResult): Record<string, unknown> {
  const shape = findCapability(task.capability)?.output;
  const artifacts = stored.map((a) => {
    const media = mediaOf(a);
    return {
      artifact_id: a.id,
      kind: a.kind,
      ...(media.role ? { role: media.role } : {}),
      content_type: a.contentType,
      byte_size: a.byteSize,
      format: media.format,
      ...(a.kind === "image" || a.kind === "video" ? { width: media.width, height: media.height } : {}),
      ...(a.kind !== "image" ? { duration_seconds: media.durationSeconds } : {}),
      ...(a.kind === "audio" ? { sample_rate: media.sampleRate, channels: media.channels } : {}),
      ...(a.kind === "video" ? { has_audio: media.hasAudio } : {}),
    };
  });
  return {
    type: shape?.type === "capability_id" ? task.capability : (stored[0]?.kind ?? task.capability),
    ...(result.text !== undefined ? { text: result.text } : {}),
    ...result.data,
    artifacts,
    ...(shape?.clips ? { clips: artifacts } : {}),
  };
}
