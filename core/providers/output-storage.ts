import { contentTypeOfFormat } from "../media/content-types.js";
import { VENDOR_OUTPUT_CAPS } from "../media/limits.js";
import { MediaProbeError, probeMediaFile, type MediaProbe } from "../media/probe.js";
import { sniffMediaType } from "../media/sniff.js";
import { SpoolTooLarge, spoolDirectory, spooledFile, type HandedFile, type Spooled } from "../media/spool.js";
import type { ArtifactStore } from "../artifacts/store.js";
import type { Config } from "../config.js";
import type { NewArtifact } from "../db/statements/insert-artifacts.js";
import type { IdGenerator } from "../ids.js";
import type { OutboundPolicy } from "../net/index.js";
import { downloadOutput } from "./http.js";
import { ProviderFailure, type ProviderOutput } from "./types.js";

// A vendor's output kept as an artifact: each output of a task (core/tasks/advance.ts), and a preset voice's stock
// sample (core/voices/stock-sample.ts), which no task makes.

// Spelled as a mapped type, not the MediaProbe interface itself, so that it is a JSON record as the artifact row keeps it.
export type StoredMedia = { [K in keyof MediaProbe]: MediaProbe[K] } & { format: string; role: string | null };

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

// A file the adapter made (ProviderOutput.file), measured and hashed where it lies and held to the same cap as a
// download.
async function spooledHandedFile(file: HandedFile, maxBytes: number): Promise<Spooled> {
  try {
    return await spooledFile(file.path, maxBytes);
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

// One vendor output as an artifact: the file its adapter handed over, or a download (at most 3 attempts) into a
// spool directory of its own. Either way the worker never holds the whole output in memory.
async function storeOutput(core: OutputStoreRuntime, keyPrefix: string, output: ProviderOutput, signal: AbortSignal): Promise<NewArtifact> {
  const maxBytes = VENDOR_OUTPUT_CAPS[output.kind];
  if (output.file) return storeSpooled(core, keyPrefix, output, await spooledHandedFile(output.file, maxBytes));
  const directory = await spoolDirectory();
  try {
    const spooled = await downloadOutput(output.url, signal, {
      file: directory.file("output"),
      maxBytes,
      policy: outputPolicy(core, output.url),
      ...(output.headers ? { headers: output.headers } : {}),
    });
    return await storeSpooled(core, keyPrefix, output, spooled);
  } finally {
    await directory.dispose();
  }
}

// A spooled output checked to decode and streamed into the artifact store under `keyPrefix` (a task's
// `<tenant>/<task>`).
async function storeSpooled(core: OutputStoreRuntime, keyPrefix: string, output: ProviderOutput, spooled: Spooled): Promise<NewArtifact> {
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
}
