import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { PcmAudio } from "./audio-encoding.js";

// eSpeak-NG compiled with Emscripten (MODULARIZE, EXPORT_ES6): every call of the factory instantiates a fresh
// module and runs the espeak-ng command line `main` once with `arguments`, against an in-memory file system that
// the caller can read afterwards. `main` cannot be called a second time, so each utterance gets its own instance.
interface EspeakInstance {
  FS: {
    writeFile(path: string, data: string): void;
    readFile(path: string): Uint8Array;
  };
}

// The project's TypeScript libs leave out the WebAssembly types, so the little of them used here is described here.
type WasmModule = object;
type WasmInstance = object;
type WasmImports = object;
interface WasmApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: WasmImports): Promise<WasmInstance>;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface EspeakModuleOptions {
  arguments: string[];
  preRun: Array<(instance: EspeakInstance) => void>;
  instantiateWasm: (
    imports: WasmImports,
    receiveInstance: (instance: WasmInstance, module: WasmModule) => void,
  ) => object;
  print: (line: string) => void;
  printErr: (line: string) => void;
}

type EspeakFactory = (options: EspeakModuleOptions) => Promise<EspeakInstance>;

interface EspeakRuntime {
  createInstance: EspeakFactory;
  compiledWasm: WasmModule;
}

export interface EspeakVoice {
  // Anything espeak-ng resolves with `-v`: a language such as "en", "fr", "zh", or a voice name such as "en-us".
  language: string;
  // espeak-ng accepts 80 to 450.
  wordsPerMinute: number;
  // 0 to 99; 50 is the voice's natural pitch.
  pitch: number;
}

export class EspeakError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EspeakError";
  }
}

export const FALLBACK_LANGUAGE = "en";

const INPUT_PATH = "/input.txt";
const OUTPUT_PATH = "/output.wav";
const UTF8_INPUT = "1";

let runtime: Promise<EspeakRuntime> | undefined;

export async function speakWithEspeak(text: string, voice: EspeakVoice): Promise<PcmAudio> {
  const spoken = await runEspeak(text, voice);
  if (spoken.kind === "spoken") return spoken.pcm;
  if (spoken.kind === "unknown-voice" && voice.language !== FALLBACK_LANGUAGE) {
    return speakWithEspeak(text, { ...voice, language: FALLBACK_LANGUAGE });
  }
  throw new EspeakError(`espeak-ng produced no audio: ${spoken.stderr || "no error output"}`);
}

type EspeakOutcome = { kind: "spoken"; pcm: PcmAudio } | { kind: "unknown-voice" | "failed"; stderr: string };

async function runEspeak(text: string, voice: EspeakVoice): Promise<EspeakOutcome> {
  const { createInstance, compiledWasm } = await loadRuntime();
  const errors: string[] = [];
  const instance = await createInstance({
    arguments: [
      "-b", UTF8_INPUT,
      "-v", voice.language,
      "-s", String(Math.round(voice.wordsPerMinute)),
      "-p", String(Math.round(voice.pitch)),
      "-w", OUTPUT_PATH,
      // Reading the text from a file keeps text that starts with "-" from being taken for an option.
      "-f", INPUT_PATH,
    ],
    preRun: [(module) => module.FS.writeFile(INPUT_PATH, text)],
    instantiateWasm: (imports, receiveInstance) => {
      void wasm.instantiate(compiledWasm, imports).then((wasmInstance) => receiveInstance(wasmInstance, compiledWasm));
      return {};
    },
    print: () => undefined,
    printErr: (line) => errors.push(line),
  });
  const stderr = errors.filter((line) => !line.includes("keepRuntimeAlive")).join("\n");
  let wav: Uint8Array;
  try {
    wav = instance.FS.readFile(OUTPUT_PATH);
  } catch {
    return { kind: stderr.includes("voice does not exist") ? "unknown-voice" : "failed", stderr };
  }
  return { kind: "spoken", pcm: pcmFromWav(Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength)) };
}

// The 18 MB wasm binary is compiled once; each utterance only instantiates it.
function loadRuntime(): Promise<EspeakRuntime> {
  runtime ??= (async () => {
    const entryPath = createRequire(import.meta.url).resolve("espeak-ng");
    const wasmBytes = await readFile(join(dirname(entryPath), "espeak-ng.wasm"));
    const [entry, compiledWasm] = await Promise.all([
      import(pathToFileURL(entryPath).href) as Promise<{ default: EspeakFactory }>,
      wasm.compile(wasmBytes),
    ]);
    return { createInstance: entry.default, compiledWasm };
  })();
  return runtime;
}

function pcmFromWav(wav: Buffer): PcmAudio {
  if (wav.toString("ascii", 0, 4) !== "RIFF" || wav.toString("ascii", 8, 12) !== "WAVE") {
    throw new EspeakError("espeak-ng output is not a WAV file");
  }
  let sampleRate: number | undefined;
  let offset = 12;
  while (offset + 8 <= wav.length) {
    const chunkId = wav.toString("ascii", offset, offset + 4);
    const chunkSize = wav.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (chunkId === "fmt ") {
      const channels = wav.readUInt16LE(body + 2);
      const bitsPerSample = wav.readUInt16LE(body + 14);
      if (channels !== 1 || bitsPerSample !== 16) {
        throw new EspeakError(`espeak-ng wrote ${channels} channels of ${bitsPerSample}-bit audio, expected 16-bit mono`);
      }
      sampleRate = wav.readUInt32LE(body + 4);
    } else if (chunkId === "data" && sampleRate !== undefined) {
      const end = Math.min(body + chunkSize, wav.length);
      return { samples: wav.subarray(body, end - ((end - body) % 2)), sampleRate };
    }
    offset = body + chunkSize + (chunkSize % 2);
  }
  throw new EspeakError("espeak-ng output has no audio data");
}
