import { randomUUID } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { build } from "esbuild";
import type { Frame, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CAPABILITIES } from "../../core/index.js";
import { TASK_APP_URI } from "../../mcp-server/task-app.js";
import { openBrowser, type Browser } from "../console/browser.js";
import { voiceLike } from "../providers/audio-support.js";
import { startMcpHarness, type McpHarness } from "../mcp/support.js";
import { queueFault } from "../support/emulator-control.js";

// The task view (MCP Apps) in Debian's chromium, rendered by a minimal host built on the ext-apps AppBridge
// (test/mcp-app/host): for speech, a video, four images, a voice clone and an understanding, the view follows its
// task to the end through the host, its media load under the CSP it declared, and it tells the model once; cancel
// stops a running task; a narrow dark column still reads. Screenshots go to test-artifacts/mcp-app.

// Each test runs real tasks through the worker and the emulator, then renders them.
vi.setConfig({ testTimeout: 90_000 });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const HOST_DIR = path.resolve(import.meta.dirname, "host");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../test-artifacts/mcp-app");

let m: McpHarness;
let browser: Browser;
let page: Page;
let host: Server;
let hostUrl: string;

// The parts of media elements the tests read (test code is typed for Node, without the DOM's types).
interface MediaElement {
  readyState: number;
  duration: number;
  videoWidth?: number;
  error: { message: string } | null;
  addEventListener(type: string, listener: () => void, options: { once: boolean }): void;
}
interface ImageElement {
  naturalWidth: number;
  decode(): Promise<void>;
}

async function bundle(entry: string): Promise<string> {
  const built = await build({ entryPoints: [path.join(HOST_DIR, entry)], bundle: true, format: "esm", platform: "browser", target: "es2022", write: false, logLevel: "error" });
  return (built.outputFiles[0]?.text ?? "").replace(/<\/(script)/gi, "<\\/$1");
}

// The sandbox's policy, as a host builds it from the resource's declaration: nothing from anywhere but what the
// view declared (and its own inline code).
function sandboxPolicy(csp: { resourceDomains?: string[]; connectDomains?: string[] }): string {
  const resources = (csp.resourceDomains ?? []).join(" ");
  return [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    `img-src data: blob: ${resources}`.trim(),
    `media-src data: blob: ${resources}`.trim(),
    `connect-src ${(csp.connectDomains ?? []).join(" ") || "'none'"}`,
    "frame-src 'none'",
    "base-uri 'none'",
  ].join("; ");
}

// The host's server: its page, the sandbox page (reached under another host name), and /mcp and /mcp/underscore
// passed on to the service's endpoints of those names with the credential, as a web host's backend holds it.
async function startHost(): Promise<Server> {
  const [hostScript, sandboxScript] = await Promise.all([bundle("host-page.ts"), bundle("sandbox-page.ts")]);
  const mcp = new URL(m.url);
  const page = (script: string, style: string) => `<!doctype html><html><head><meta charset="utf-8"><style>${style}</style></head><body><script type="module">${script}</script></body></html>`;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://host");
    if (url.pathname === "/mcp" || url.pathname === "/mcp/underscore") {
      const { origin: _origin, host: _host, ...headers } = request.headers;
      const upstream = httpRequest(new URL(`${mcp.pathname}${url.pathname.slice("/mcp".length)}`, mcp), { method: request.method, headers: { ...headers, authorization: `Bearer ${m.h.apiKey}` } }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      request.pipe(upstream);
      return;
    }
    if (url.pathname === "/sandbox.html") {
      const csp = JSON.parse(url.searchParams.get("csp") ?? "{}");
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": sandboxPolicy(csp) });
      // The view's frame fills the sandbox's, which the host sizes to the height the view reports.
      response.end(page(sandboxScript, "html,body{margin:0;height:100%;overflow:hidden}"));
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(page(hostScript, "body{margin:0}iframe{border:0;display:block}"));
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  return server;
}

beforeAll(async () => {
  [m, browser] = await Promise.all([startMcpHarness({ credits: "1000", env: { WORKER_POLL_INTERVAL_MS: "100" } }), openBrowser()]);
  host = await startHost();
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;
  page = browser.page;
  await page.goto(hostUrl);
  await mkdir(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (host ? host.close(resolve) : resolve(undefined)));
  await m?.close();
});

interface Shown {
  result: Any;
  view: FrameLocator;
}

// Calls a tool through the host, which renders the view with its result.
async function show(name: string, args: Record<string, unknown>, options: Record<string, unknown> = {}): Promise<Shown> {
  const result = await page.evaluate(([tool, input, shown]) => (globalThis as Any).testHost.show(tool, input, shown), [name, args, options] as const);
  return { result, view: page.frameLocator("#view").frameLocator("iframe") };
}

async function viewFrame(): Promise<Frame> {
  const sandbox = await (await page.$("#view"))?.contentFrame();
  const inner = sandbox?.childFrames()[0];
  if (!inner) throw new Error("the view's frame is not there");
  return inner;
}

const hostLog = (): Promise<Any> => page.evaluate(() => (globalThis as Any).hostLog);

async function ended(view: FrameLocator, status = "succeeded"): Promise<void> {
  await view.locator(`article.task[data-status="${status}"]`).waitFor({ timeout: 80_000 });
}

async function screenshot(name: string): Promise<void> {
  await page.locator("#view").screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

// What the page logged as errors: CSP refusals, failed loads, exceptions. The host's MCP client opens a GET stream
// for server messages, which the stateless endpoint declines with 405 as the transport allows.
const problems = () => browser.problems.filter((text) => !text.includes("status of 405 (Method Not Allowed)"));

// Waits for a player's metadata (duration, size), as a user pressing play would need it.
async function loadedMetadata(view: FrameLocator, selector: string) {
  return view.locator(selector).evaluate(
    (media: MediaElement) =>
      new Promise<{ duration: number; videoWidth?: number }>((resolve, reject) => {
        const done = () => resolve({ duration: media.duration, videoWidth: media.videoWidth });
        if (media.readyState >= 1) return done();
        media.addEventListener("loadedmetadata", done, { once: true });
        media.addEventListener("error", () => reject(new Error(media.error?.message ?? "media error")), { once: true });
      }),
  );
}

// The model is told once, after the view saw the task end.
async function toldModel(taskId: string): Promise<string> {
  await page.waitForFunction((id) => JSON.stringify((globalThis as Any).hostLog.modelContext).includes(id), taskId, { timeout: 10_000 });
  const told = (await hostLog()).modelContext.filter((entry: Any) => JSON.stringify(entry).includes(taskId));
  expect(told).toHaveLength(1);
  return told[0].content[0].text;
}

async function finalTask(taskId: string): Promise<Any> {
  return (await m.h.request("GET", `/v1/tasks/${taskId}`)).body;
}

async function expectFollowedThroughHost(taskId: string): Promise<void> {
  const calls = (await hostLog()).appToolCalls.filter((call: Any) => call.arguments?.task_id === taskId);
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) expect(call).toMatchObject({ name: "svc.tasks.get", arguments: { thumbnails: false } });
}

describe("the task view", () => {
  it("is one self-contained resource, linked from every create tool and svc.tasks.get, whose CSP names the artifact origin", async () => {
    const client = await m.connect();
    const { resources } = await client.listResources();
    expect(resources).toContainEqual(expect.objectContaining({ uri: TASK_APP_URI, mimeType: "text/html;profile=mcp-app" }));
    const [content] = (await client.readResource({ uri: TASK_APP_URI })).contents as Any[];
    expect(content.mimeType).toBe("text/html;profile=mcp-app");
    expect(content._meta.ui.csp).toEqual({ resourceDomains: [new URL(m.h.baseUrl).origin] });
    // Nothing is loaded from elsewhere: no script, style sheet or font by address.
    expect(content.text).not.toMatch(/<script[^>]*\ssrc=|<link\b|@import|@font-face|url\(\s*["']?(https?:)?\/\//i);
    const { tools } = await client.listTools();
    const linked = tools.filter((tool) => (tool._meta as Any)?.ui?.resourceUri === TASK_APP_URI).map((tool) => tool.name);
    expect(linked).toContain("svc.tasks.get");
    expect(linked.sort()).toEqual([...CAPABILITIES.map((capability) => capability.tool.name), "svc.tasks.get"].sort());
  });

  it("follows speech to its end through the host, plays it, shows model and credits, and tells the model once", async () => {
    const { result, view } = await show("svc.speech.synthesize", { client_request_id: randomUUID(), voice: "en_female_aria", input: "The view follows this task to its end." });
    const taskId = result.structuredContent.task_id;
    expect(result.structuredContent.status).toBe("queued");
    await ended(view);
    const audio = await loadedMetadata(view, "audio");
    expect(audio.duration).toBeGreaterThan(0.5);
    const task = await finalTask(taskId);
    await expect(view.locator(".model").textContent()).resolves.toContain(task.resolved_model);
    await expect(view.locator("[data-net-charged]").getAttribute("data-net-charged")).resolves.toBe(task.billing.net_charged_credits);
    await expect(view.locator(".request").textContent()).resolves.toBe("The view follows this task to its end.");
    await expectFollowedThroughHost(taskId);
    const summary = await toldModel(taskId);
    expect(summary).toContain("succeeded");
    expect(summary).toContain(task.output.artifacts[0].artifact_id);
    expect(summary).toContain(`${task.billing.net_charged_credits} credits charged`);
    // The download goes through the host (the view's sandbox may not download).
    await view.getByRole("link", { name: /^Download mp3/ }).click();
    await page.waitForFunction(() => (globalThis as Any).hostLog.downloads.length > 0);
    expect((await hostLog()).downloads[0].contents[0]).toMatchObject({ type: "resource_link", uri: task.output.artifacts[0].url, mimeType: "audio/mpeg" });
    await screenshot("speech");
    expect(problems()).toEqual([]);
  });

  it("opened by svc.tasks.get on an ended task, shows it under what the task does, without following or telling the model", async () => {
    const [speech] = (await m.h.request("GET", "/v1/tasks?capability=text_to_speech&limit=1")).body.data;
    const callsFor = async () => (await hostLog()).appToolCalls.filter((call: Any) => call.arguments?.task_id === speech.task_id).length;
    const before = await callsFor();
    const { view } = await show("svc.tasks.get", { task_id: speech.task_id });
    await ended(view);
    await expect(view.locator("h1").textContent()).resolves.toBe("Text to speech");
    expect((await loadedMetadata(view, "audio")).duration).toBeGreaterThan(0.5);
    expect(await callsFor()).toBe(before);
    // Still the one summary the first view sent.
    await toldModel(speech.task_id);
    expect(problems()).toEqual([]);
  });

  it("plays a video", async () => {
    const { result, view } = await show("svc.videos.generate", { client_request_id: randomUUID(), prompt: "A paper boat drifting down a rain-soaked street." });
    const taskId = result.structuredContent.task_id;
    await ended(view);
    const video = await loadedMetadata(view, "video");
    expect(video.duration).toBeGreaterThan(1);
    expect(video.videoWidth).toBeGreaterThan(0);
    await expectFollowedThroughHost(taskId);
    expect(await toldModel(taskId)).toMatch(/1 video of [\d.]+ s/);
    await screenshot("video");
    expect(problems()).toEqual([]);
  });

  let imageArtifact = "";
  it("shows four images as a gallery, each decoded", async () => {
    const { result, view } = await show("svc.images.generate", { client_request_id: randomUUID(), prompt: "A lighthouse on a cliff at dawn, watercolor", count: 4 });
    const taskId = result.structuredContent.task_id;
    await ended(view);
    const images = view.locator(".gallery img");
    await expect(images.count()).resolves.toBe(4);
    const widths = await images.evaluateAll((all: ImageElement[]) => Promise.all(all.map(async (image) => (await image.decode(), image.naturalWidth))));
    expect(widths.every((width) => width > 0)).toBe(true);
    // The console's grid: two columns and two rows, each picture whole.
    const boxes = await Promise.all((await images.all()).map(async (image) => (await image.boundingBox())!));
    expect(new Set(boxes.map((box) => Math.round(box.x))).size).toBe(2);
    expect(new Set(boxes.map((box) => Math.round(box.y))).size).toBe(2);
    // No thumbnails were made for the view's own reads, the one that saw the end included.
    await expectFollowedThroughHost(taskId);
    const answers = (await hostLog()).appToolCalls.filter((call: Any) => call.arguments?.task_id === taskId).flatMap((call: Any) => call.answered);
    expect(answers).toContain("resource_link");
    expect(answers).not.toContain("image");
    expect(await toldModel(taskId)).toMatch(/4 images/);
    imageArtifact = (await finalTask(taskId)).output.artifacts[0].artifact_id;
    await screenshot("images");
    expect(problems()).toEqual([]);
  });

  it("shows a new voice with its sample", async () => {
    const sample = `data:audio/mpeg;base64,${(await voiceLike(140, 12)).toString("base64")}`;
    const { result, view } = await show("svc.voices.clone", { client_request_id: randomUUID(), sample: { type: "url", url: sample }, display_name: "Narrator", consent_attested: true });
    const taskId = result.structuredContent.task_id;
    await ended(view);
    const task = await finalTask(taskId);
    await expect(view.locator("[data-voice-id]").textContent()).resolves.toBe(task.output.voice_id);
    expect((await loadedMetadata(view, "audio")).duration).toBeGreaterThan(0.5);
    expect(await toldModel(taskId)).toContain(`created voice ${task.output.voice_id}`);
    await screenshot("voice-clone");
    expect(problems()).toEqual([]);
  });

  it("shows the text of an understanding", async () => {
    expect(imageArtifact).not.toBe("");
    const { result, view } = await show("svc.images.analyze", {
      client_request_id: randomUUID(),
      model: "auto",
      prompt: "What is in this picture?",
      images: [{ type: "artifact", artifact_id: imageArtifact }],
    });
    const taskId = result.structuredContent.task_id;
    await ended(view);
    const task = await finalTask(taskId);
    expect(task.output.text.length).toBeGreaterThan(0);
    await expect(view.locator(".text").textContent()).resolves.toBe(task.output.text);
    expect(await toldModel(taskId)).toContain("answered:");
    await screenshot("understanding");
    expect(problems()).toEqual([]);
  });

  it("shows a running task's progress and cancels it: canceled, refunded, the model told", async () => {
    // A job the vendor never finishes stays running until canceled; this model can stop it.
    await queueFault(m.h, { family: "vendorB", model: "vendorB-2", kind: "hang" });
    const { result, view } = await show("svc.videos.generate", { client_request_id: randomUUID(), prompt: "An endless corridor.", model: "vendorB-2", resolution: "480p" });
    const taskId = result.structuredContent.task_id;
    await view.locator('article.task[data-status="running"]').waitFor();
    await expect(view.locator(".progress").textContent()).resolves.toMatch(/^\d+%/);
    await screenshot("running");
    await view.getByRole("button", { name: "Cancel" }).click();
    await ended(view, "canceled");
    expect((await hostLog()).appToolCalls).toContainEqual(expect.objectContaining({ name: "svc.tasks.cancel", arguments: { task_id: taskId } }));
    const task = await finalTask(taskId);
    expect(task.status).toBe("canceled");
    expect(task.billing.net_charged_credits).toBe("0.000000");
    await expect(view.locator(".cost").textContent()).resolves.toMatch(/^Refunded in full \([\d.]+ credits\)$/);
    expect(await toldModel(taskId)).toContain("was canceled");
    await screenshot("canceled");
    expect(problems()).toEqual([]);
  });

  it("reads in a narrow, dark column", async () => {
    const { result, view } = await show(
      "svc.speech.synthesize",
      { client_request_id: randomUUID(), voice: "en_female_aria", input: "A narrow column in the dark." },
      { theme: "dark", width: 300 },
    );
    await ended(view);
    const frame = await viewFrame();
    const layout = await frame.evaluate(() => {
      const root = (globalThis as Any).document.documentElement;
      return { theme: root.dataset.theme, scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, background: (globalThis as Any).getComputedStyle(root).backgroundColor };
    });
    expect(layout.theme).toBe("dark");
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
    // A dark background: each channel well below the middle.
    const channels = (layout.background.match(/\d+/g) ?? []).slice(0, 3).map(Number);
    expect(Math.max(...channels)).toBeLessThan(80);
    await toldModel(result.structuredContent.task_id);
    await screenshot("narrow-dark");
    expect(problems()).toEqual([]);
  });

  it("loads no media its CSP did not declare", async () => {
    const { view } = await show("svc.speech.synthesize", { client_request_id: randomUUID(), voice: "en_female_aria", input: "Refused." }, { csp: {} });
    await ended(view);
    await expect.poll(() => problems().some((text) => /^Loading media from .* violates the following Content Security Policy directive: "media-src data: blob:"/.test(text))).toBe(true);
    await expect(view.locator("audio").evaluate((audio: MediaElement) => audio.readyState)).resolves.toBe(0);
  });
  it("tells a person why a create was refused, in words of its own, and the model once that nothing runs", async () => {
    // The test before this one made the sandbox refuse on purpose; only what this view does counts here.
    const earlier = problems().length;
    const { result, view } = await show("svc.speech.synthesize", { client_request_id: randomUUID(), voice: "no_such_voice", input: "Never spoken." });
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error.code).toBe("voice_not_found");
    const problem = view.locator(".problem");
    await problem.waitFor();
    await expect(problem.getAttribute("data-code")).resolves.toBe("voice_not_found");
    const shown = (await view.locator("article.task").textContent()) ?? "";
    expect(shown).toContain("That voice does not exist. Nothing was started or charged.");
    // No tool names, REST paths or instructions meant for the agent.
    expect(shown).not.toMatch(/svc[._]|\/v1\/|poll|resubmit|client_request_id/i);
    await expect(view.locator("button.cancel").count()).resolves.toBe(0);
    const told = (await hostLog()).modelContext.filter((entry: Any) => JSON.stringify(entry).includes("voice_not_found"));
    expect(told).toHaveLength(1);
    expect(told[0].content[0].text).toContain("Nothing is running and nothing was charged");
    await screenshot("refused");
    expect(problems().slice(earlier)).toEqual([]);
  });

  it("on the underscore endpoint, follows and cancels with the names that endpoint lists", async () => {
    await page.goto(`${hostUrl}?mcp=/mcp/underscore`);
    try {
      await queueFault(m.h, { family: "vendorB", model: "vendorB-2", kind: "hang" });
      const { result, view } = await show("svc_videos_generate", { client_request_id: randomUUID(), prompt: "A corridor, once more.", model: "vendorB-2", resolution: "480p" });
      const taskId = result.structuredContent.task_id;
      await view.locator('article.task[data-status="running"]').waitFor();
      await view.getByRole("button", { name: "Cancel" }).click();
      await ended(view, "canceled");
      const names = new Set((await hostLog()).appToolCalls.filter((call: Any) => call.arguments?.task_id === taskId).map((call: Any) => call.name));
      expect([...names].sort()).toEqual(["svc_tasks_cancel", "svc_tasks_get"]);
      expect(await toldModel(taskId)).toContain("was canceled");
    } finally {
      await page.goto(hostUrl);
    }
  });
});
