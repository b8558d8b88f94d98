import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { createClient, type CapabilityId } from "../client/src/index.js";

// The console's examples (a few per capability that takes words alone: images, speech, music, video) with their
// outputs, made by the service itself: each request is run through the service this points at (SVC_BASE_URL,
// SVC_API_KEY: `npm start` against its bundled vendor emulator, the default vendors), its outputs downloaded into
// console/examples/ beside examples.json, which says what each example asks and what it made. The build copies
// them into dist/console, where Try shows them and loads one into its form with a click.
//   SVC_BASE_URL=http://127.0.0.1:8080 SVC_API_KEY=$(cat .data/dev-api-key) npx tsx scripts/console-examples.ts

export interface ExampleOutput {
  file: string;
  kind: string;
  format: string;
  width?: number;
  height?: number;
  duration_seconds?: number;
}

export interface ConsoleExample {
  id: string;
  capability: string;
  title: string;
  body: Record<string, unknown>;
  model: string;
  outputs: ExampleOutput[];
}

const REQUESTS: Omit<ConsoleExample, "model" | "outputs">[] = [
  { id: "lighthouse", capability: "text_to_image", title: "Watercolor lighthouse, two takes", body: { prompt: "A lighthouse on a cliff at dawn, watercolor", count: 2 } },
  { id: "kite", capability: "text_to_image", title: "Red kite, square", body: { prompt: "A red kite over green hills, bright noon light", canvas: { type: "preset", tier: "1K", aspect: "1:1" } } },
  { id: "welcome", capability: "text_to_speech", title: "A warm welcome (Aria)", body: { voice: "en_female_aria", input: "Welcome back! Your pictures are ready." } },
  { id: "news", capability: "text_to_speech", title: "Evening news (Atlas, WAV)", body: { voice: "en_male_atlas", input: "Good evening. Here is the news at seven.", format: "wav" } },
  { id: "study", capability: "text_to_music", title: "Lo-fi beat to study to", body: { model: "auto", prompt: "A calm lo-fi hip hop beat with soft piano, for studying" } },
  { id: "boat", capability: "text_to_video", title: "Paper boat in the rain", body: { prompt: "A paper boat drifting down a rain-soaked street at dusk", model: "vendorB-2-mini" } },
];

export const EXAMPLES_DIR = path.resolve(import.meta.dirname, "../console/examples");

export async function makeConsoleExamples(baseUrl: string, apiKey: string, dir = EXAMPLES_DIR): Promise<ConsoleExample[]> {
  const svc = createClient({ baseUrl, apiKey });
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const examples: ConsoleExample[] = [];
  for (const request of REQUESTS) {
    const task = await svc.run(request.capability as CapabilityId, request.body as never, { timeoutMs: 120_000 });
    if (task.status !== "succeeded" || !task.output) throw new Error(`example ${request.id}: task ${task.task_id} ${task.status}: ${task.error?.message}`);
    const outputs: ExampleOutput[] = [];
    for (const [i, artifact] of task.output.artifacts.entries()) {
      // Flat names: dist/console is served one level deep.
      const file = `example-${request.id}-${i + 1}.${artifact.format}`;
      await writeFile(path.join(dir, file), await svc.download(artifact));
      const { kind, format, width, height, duration_seconds } = artifact;
      outputs.push({ file, kind, format, ...(width ? { width, height } : {}), ...(duration_seconds !== undefined ? { duration_seconds } : {}) });
    }
    examples.push({ ...request, model: task.resolved_model, outputs });
  }
  await writeFile(path.join(dir, "examples.json"), `${JSON.stringify(examples, null, 2)}\n`);
  return examples;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const { SVC_BASE_URL = "http://127.0.0.1:8080", SVC_API_KEY = "" } = process.env;
  const made = await makeConsoleExamples(SVC_BASE_URL, SVC_API_KEY);
  console.log(`${made.length} examples, ${made.reduce((n, e) => n + e.outputs.length, 0)} outputs in ${EXAMPLES_DIR}`);
}
