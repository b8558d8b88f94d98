import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { admin, createCore, createTask, getTask, listTasksPage, loadConfig, migrateDatabase, parseCredits, type Core } from "../core/index.js";
import { openBenchDatabase, type BenchDatabase } from "./postgres.js";
import { writeResultsSection } from "./results-file.js";

// `npm run build && node dist/bench/response-size.js`: how large task reads and list pages are when every task was
// sent with inline media. Tasks are admitted (no worker runs), each with one data URI; the answers are rendered by
// the same core functions the REST routes call and measured as the JSON bytes they send. The result replaces its
// section in bench/RESULTS.md.

const TASKS = 20;
const INLINE_BYTES = 8 * 1024 * 1024;
const LARGEST_BYTES = 23 * 1024 * 1024;
const SECTION = "## Response size with inline media";
const log = (line: string) => console.log(`[response-size] ${line}`);

let database: BenchDatabase | null = null;
let core: Core | null = null;
const directory = await mkdtemp(path.join(tmpdir(), "response-size-"));

// A PNG signature then zeros: admitted as a data URI image (nothing decodes it before a worker would).
function dataUri(bytes: number): string {
  const png = Buffer.alloc(bytes);
  Buffer.from("89504e470d0a1a0a0000000d49484452", "hex").copy(png);
  return `data:image/png;base64,${png.toString("base64")}`;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

try {
  database = await openBenchDatabase(log);
  await migrateDatabase(database.url);
  core = createCore(
    loadConfig({
      DATABASE_URL: database.url,
      ARTIFACT_URL_SECRET: "response-size-bench-secret-0123456789",
      CALLBACK_SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString("base64"),
      ARTIFACT_DIR: path.join(directory, "artifacts"),
      VENDOR_E_BASE_URL: "http://127.0.0.1:9/vendorE",
      VENDOR_E_API_KEY: "unused",
      LOG_LEVEL: "warn",
    }),
  );
  const tenant = await admin.createTenant(core.db, core.ids, "response size bench", parseCredits("100000"));
  const create = async (uri: string) => {
    const created = await createTask(
      core as Core,
      "image_to_image",
      { prompt: "the same, in blue", images: [uri], model: "vendorE-image-2.5-flare" },
      { tenantId: tenant.id, idempotencyKey: randomUUID(), requestId: "response-size", surface: "rest" },
    );
    return { created: Buffer.byteLength(JSON.stringify(created.task)), taskId: created.task.task_id, sent: uri.length };
  };
  const uri = dataUri(INLINE_BYTES);
  const tasks = [];
  for (let i = 0; i < TASKS; i++) tasks.push(await create(uri));
  const largest = await create(dataUri(LARGEST_BYTES));
  const read = Buffer.byteLength(JSON.stringify(await getTask(core, tenant.id, largest.taskId)));
  const page = Buffer.byteLength(JSON.stringify(await listTasksPage(core, tenant.id, { limit: String(TASKS + 1) })));
  const sent = tasks.reduce((sum, t) => sum + t.sent, 0) + largest.sent;
  log(`page of ${TASKS + 1} tasks sent with ${mib(sent)} of data URIs: ${kib(page)}; one task with a ${mib(largest.sent)} data URI: 202 ${kib(largest.created)}, GET ${kib(read)}`);

  const section = [
    SECTION,
    "",
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run build && node dist/bench/response-size.js\` (bench/response-size.ts).`,
    "",
    `${TASKS} image-to-image tasks admitted with ${mib(INLINE_BYTES)} of media each as a data URI, and one with ${mib(LARGEST_BYTES)} (about`,
    "the most a 32 MiB body carries in base64); answers rendered by the core functions of the REST routes, measured",
    "as JSON bytes. Inline media appears as a reference (type, size, sha256, artifact id), never as its bytes.",
    "",
    "| Answer | Data URIs the tasks were sent with | JSON bytes |",
    "|---|---|---|",
    `| 202 of the task with the largest data URI | ${mib(largest.sent)} | ${kib(largest.created)} |`,
    `| GET of that task | ${mib(largest.sent)} | ${kib(read)} |`,
    `| \`GET /v1/tasks?limit=${TASKS + 1}\`, every task above | ${mib(sent)} | ${kib(page)} |`,
    "",
    "Before this change every one of these answers carried the data URIs whole: the page above would have been",
    `${mib(sent)} and more, and a page of 100 such tasks about 3 GiB.`,
    "",
  ].join("\n");
log(`written to ${await writeResultsSection(SECTION, section)}`);
} finally {
  await core?.close();
  await database?.close().catch((error: unknown) => console.error("[response-size] removing the database:", error));
  await rm(directory, { recursive: true, force: true });
  process.exit(process.exitCode ?? 0);
}
