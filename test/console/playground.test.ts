import { execFile } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Client, JsonSchemaType } from "@modelcontextprotocol/client";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Locator, Page } from "playwright-core";
import { startMcpHarness, type McpHarness } from "../mcp/support.js";
import { waitForTask, type Harness } from "../support/harness.js";
import { openBrowser, PHONE, screenshot, type Browser } from "./browser.js";

// The console's playground as a person picks it up, in headless Chromium against a whole service (REST, worker,
// vendor emulator), at a large laptop's window (1440×900) and a phone's (390×844): a task's four images all in
// sight at once, in Try and on its History page; the lightbox a click opens, its arrow keys, 100 % zoom, Escape,
// and "use as input" from it; the request as code, copied and run as a person would (curl in bash, the TypeScript
// compiled and run, the MCP call checked against tools/list and sent). Screenshots go to test-artifacts/console.

// Real tasks through the worker, rendered in two tabs (several seconds each beside other test files on two cores).
vi.setConfig({ testTimeout: 90_000 });

const LAPTOP = { width: 1440, height: 900 };
const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

let m: McpHarness;
let h: Harness;
let mcp: Client;
let scratch: string;
let browser: Browser;
let desk: Page;
let phone: Page;

beforeAll(async () => {
  [m, browser, scratch] = await Promise.all([
    startMcpHarness({ credits: "1000", env: { WORKER_POLL_INTERVAL_MS: "100" } }),
    openBrowser(LAPTOP),
    mkdtemp(path.join(tmpdir(), "console-snippets-")),
  ]);
  h = m.h;
  mcp = await m.connect();
  desk = browser.page;
  phone = await browser.newPage(PHONE);
  await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: h.baseUrl });
  // A project for the TypeScript snippet: the checkout's packages, the client's name pointed at its sources.
  await symlink(path.join(ROOT, "node_modules"), path.join(scratch, "node_modules"), "dir");
  await writeFile(path.join(scratch, "package.json"), JSON.stringify({ name: "my-project", version: "1.0.0" }));
});
afterAll(async () => {
  await browser?.close();
  await m?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

interface MediaElement {
  currentTime: number;
  duration: number;
  readyState: number;
  play(): Promise<void>;
  pause(): void;
  addEventListener(type: string, listener: (value: unknown) => void, options: { once: boolean }): void;
}

// Played until its time moves: what it lasts and how far it got.
async function plays(media: Locator): Promise<{ currentTime: number; duration: number }> {
  return media.evaluate(async (element: MediaElement) => {
    if (element.readyState < 1) await new Promise((resolve) => element.addEventListener("loadedmetadata", resolve, { once: true }));
    await element.play();
    while (element.currentTime === 0) await new Promise((resolve) => element.addEventListener("timeupdate", resolve, { once: true }));
    element.pause();
    return { currentTime: element.currentTime, duration: element.duration };
  });
}

interface ImageElement {
  naturalWidth: number;
  width: number;
  decode(): Promise<void>;
}

const size = (page: Page) => page.viewportSize() ?? LAPTOP;

async function signIn(page: Page) {
  await page.goto(`${h.baseUrl}/`);
  await page.fill("#api-key", h.apiKey);
  await page.getByRole("button", { name: "Open the console" }).click();
  await page.getByRole("navigation", { name: "Console" }).waitFor();
}

// Every one of the pictures decoded and whole inside the window, without scrolling; their boxes, for the layout.
async function allInView(page: Page, images: Locator): Promise<{ x: number; y: number; width: number; height: number }[]> {
  await images.evaluateAll((all: ImageElement[]) => Promise.all(all.map((image) => image.decode())));
  const boxes = await Promise.all((await images.all()).map((image) => image.boundingBox()));
  const { width, height } = size(page);
  for (const box of boxes) {
    expect(box, "an image is laid out").not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, "inside the window's width").toBeLessThanOrEqual(width);
    expect(box!.y + box!.height, "inside the window's height").toBeLessThanOrEqual(height);
  }
  return boxes.map((box) => box!);
}

// Two columns and two rows: the boxes' distinct left edges and top edges.
function grid(boxes: { x: number; y: number }[]): { columns: number; rows: number } {
  return { columns: new Set(boxes.map((b) => Math.round(b.x))).size, rows: new Set(boxes.map((b) => Math.round(b.y))).size };
}

const fitsWidth = async (page: Page) => (await page.evaluate<number>("document.documentElement.scrollWidth")) <= size(page).width;

describe("the playground", () => {
  let taskId = "";
  let artifacts: string[] = [];

  it("shows a task's four images all at once in Try, a 2×2 grid at 1440×900", async () => {
    await Promise.all([signIn(desk), signIn(phone)]);
    await desk.goto(`${h.baseUrl}/#/try/text_to_image`);
    await desk.locator('form[aria-label="text_to_image request"]').waitFor();
    await desk.locator('[id="field/prompt"]').fill("A lighthouse on a cliff at dawn, watercolor");
    await desk.locator('[id="field/count"] .segment', { hasText: "4" }).click();
    await desk.locator("button.run").click();
    const task = desk.locator(".output article.task");
    await task.waitFor();
    taskId = (await task.getAttribute("data-task-id")) ?? "";
    await desk.locator('.output article.task[data-status="succeeded"]').waitFor({ timeout: 60_000 });
    artifacts = ((await h.request("GET", `/v1/tasks/${taskId}`)).body.output.artifacts as { artifact_id: string }[]).map((a) => a.artifact_id);
    expect(artifacts).toHaveLength(4);
    const images = desk.locator(".output .gallery img");
    expect(await images.count()).toBe(4);
    expect(grid(await allInView(desk, images))).toEqual({ columns: 2, rows: 2 });
    expect(await screenshot(browser, "try-gallery-desktop", { fullPage: false })).toBeGreaterThan(1);
  });

  it("opens an image in the lightbox on a click; arrows move, 100 % zooms, Escape closes", async () => {
    await desk.locator(".output .gallery button.enlarge").nth(1).click();
    const lightbox = desk.locator("dialog.lightbox");
    await lightbox.waitFor();
    const shown = lightbox.locator(".lightbox-frame img");
    const position = lightbox.locator(".lightbox-position");
    expect(await position.textContent()).toMatch(/^2 of 4 · 2048×1152/);
    expect(await shown.getAttribute("data-artifact")).toBe(artifacts[1]);
    // Fitted to the window, whole.
    expect(await allInView(desk, shown)).toHaveLength(1);
    expect(await screenshot(browser, "lightbox-desktop", { fullPage: false })).toBeGreaterThan(1);

    await desk.keyboard.press("ArrowRight");
    await lightbox.locator(".lightbox-position", { hasText: /^3 of 4/ }).waitFor();
    expect(await shown.getAttribute("data-artifact")).toBe(artifacts[2]);
    await desk.keyboard.press("ArrowLeft");
    await desk.keyboard.press("ArrowLeft");
    await lightbox.locator(".lightbox-position", { hasText: /^1 of 4/ }).waitFor();
    // Round from the first to the last.
    await desk.keyboard.press("ArrowLeft");
    await lightbox.locator(".lightbox-position", { hasText: /^4 of 4/ }).waitFor();
    expect(await shown.getAttribute("data-artifact")).toBe(artifacts[3]);

    await lightbox.getByRole("button", { name: "100 %" }).click();
    const actual = await shown.evaluate(async (image: ImageElement) => (await image.decode(), { natural: image.naturalWidth, width: image.width }));
    expect(actual.width).toBe(actual.natural);
    expect(await screenshot(browser, "lightbox-actual-size-desktop", { fullPage: false })).toBeGreaterThan(1);
    await lightbox.getByRole("button", { name: "Fit to window" }).click();
    expect(await lightbox.locator("a", { hasText: "Download" }).getAttribute("href")).toContain(artifacts[3]);

    await desk.keyboard.press("Escape");
    await lightbox.waitFor({ state: "detached" });
    // The focus is back on the picture it was opened from.
    expect(await desk.evaluate("document.activeElement.getAttribute('aria-label')")).toBe("Enlarge image 2 of 4");
  });

  it("shows them all at once on the task's History page, on a laptop and on a phone", async () => {
    await desk.goto(`${h.baseUrl}/#/history/${taskId}`);
    const images = desk.locator(".task-detail .gallery img");
    await images.first().waitFor();
    expect(grid(await allInView(desk, images))).toEqual({ columns: 2, rows: 2 });
    expect(await screenshot(browser, "history-gallery-desktop", { fullPage: false })).toBeGreaterThan(1);

    await phone.goto(`${h.baseUrl}/#/history/${taskId}`);
    const small = phone.locator(".task-detail .gallery img");
    await small.first().waitFor();
    expect(grid(await allInView(phone, small))).toEqual({ columns: 2, rows: 2 });
    expect(await fitsWidth(phone)).toBe(true);
    expect(await screenshot(browser, "history-gallery-phone", { page: phone, fullPage: false })).toBeGreaterThan(1);
    await phone.locator(".task-detail .gallery button.enlarge").first().click();
    await phone.locator("dialog.lightbox .lightbox-position", { hasText: /^1 of 4/ }).waitFor();
    expect(await fitsWidth(phone)).toBe(true);
    expect(await screenshot(browser, "lightbox-phone", { page: phone, fullPage: false })).toBeGreaterThan(1);
  });

  it("hands an image on from the lightbox as the input of another capability", async () => {
    await desk.locator(".task-detail .gallery button.enlarge").nth(2).click();
    const lightbox = desk.locator("dialog.lightbox");
    await lightbox.locator("details.menu summary").click();
    await lightbox.getByRole("button", { name: /Image to video/ }).click();
    await desk.locator('form[aria-label="image_to_video request"] .media-input.chosen img.preview').waitFor();
    expect(await desk.locator("dialog.lightbox").count()).toBe(0);
    expect(await desk.locator('form[aria-label="image_to_video request"] .media-input.chosen code').textContent()).toBe(artifacts[2]);
  });

  // The snippet a copy button puts on the clipboard.
  async function copied(language: string): Promise<string> {
    const panel = desk.locator("details.request-code");
    await panel.locator(".segment", { hasText: language }).click();
    await panel.getByRole("button", { name: `Copy ${language}` }).click();
    await panel.getByRole("button", { name: "Copied" }).waitFor();
    return desk.evaluate<string>("navigator.clipboard.readText()");
  }

  // Each snippet as a person takes it: curl run by bash with the key in its variable (a wrapper adds the status
  // line), the TypeScript run by tsx (and type-checked below, all in one tsc run: tsc takes seconds to start), the
  // MCP message checked against the tool's schema in tools/list and sent. Returns the task the curl made.
  const typescriptSnippets: string[] = [];
  async function runSnippets(name: string): Promise<Record<string, unknown>> {
    const env = { ...process.env, SVC_API_KEY: h.apiKey };
    const curl = await copied("curl");
    expect(curl).toContain("$SVC_API_KEY");
    expect(curl).not.toContain(h.apiKey);
    const shell = await run("bash", ["-c", `curl() { command curl -w '\n%{http_code}' "$@"; }\n${curl}`], { env });
    const [answer, status] = shell.stdout.trim().split(/\n(?=\d{3}$)/);
    expect(status).toBe("202");
    const created = JSON.parse(answer!) as { task_id: string; status: string };
    expect(created.task_id).toMatch(/^task_/);

    const typescript = await copied("TypeScript");
    expect(typescript).toContain('from "@media-task-service/client"');
    const file = path.join(scratch, `${name}.mts`);
    await writeFile(file, typescript.replace('"@media-task-service/client"', JSON.stringify(path.join(ROOT, "client/src/index.js"))));
    typescriptSnippets.push(file);
    const ran = await run(path.join(ROOT, "node_modules/.bin/tsx"), [file], { cwd: scratch, env });
    expect(ran.stdout).toMatch(/^task_\S+ succeeded /);

    const message = JSON.parse(await copied("MCP tool call")) as { method: string; params: { name: string; arguments: Record<string, unknown> } };
    expect(message.method).toBe("tools/call");
    const tool = (await mcp.listTools()).tools.find((t) => t.name === message.params.name);
    expect(tool, `tools/list has ${message.params.name}`).toBeDefined();
    const validate = new AjvJsonSchemaValidator().getValidator(tool!.inputSchema as JsonSchemaType);
    expect(validate(message.params.arguments)).toMatchObject({ valid: true });
    const called = await mcp.callTool(message.params);
    expect(called.isError ?? false).toBe(false);
    return (await h.request("GET", `/v1/tasks/${created.task_id}`)).body;
  }

  it("writes a speech request as curl, TypeScript and an MCP call that run as copied, following the form", async () => {
    await desk.goto(`${h.baseUrl}/#/try/text_to_speech`);
    await desk.locator('[id="field/voice"] option[value="en_male_atlas"]').waitFor({ state: "attached" });
    await desk.locator('[id="field/voice"]').selectOption("en_male_atlas");
    await desk.locator('[id="field/input"]').fill("Copied from the console.");
    await desk.locator("details.request-code summary").click();
    const snippet = desk.locator("details.request-code pre.code");
    expect(await snippet.textContent()).toContain('"input": "Copied from the console."');
    // It follows the form as it changes.
    await desk.locator('[id="field/input"]').fill("It's copied from the console.");
    await desk.locator("details.request-code pre.code", { hasText: `It'\\''s copied from the console.` }).waitFor();
    expect(await screenshot(browser, "request-code-desktop", { fullPage: false })).toBeGreaterThan(1);
    await phone.goto(`${h.baseUrl}/#/try/text_to_speech`);
    await phone.locator("details.request-code summary").click();
    await phone.locator("details.request-code pre.code").scrollIntoViewIfNeeded();
    expect(await fitsWidth(phone)).toBe(true);
    expect(await screenshot(browser, "request-code-phone", { page: phone, fullPage: false })).toBeGreaterThan(1);
    const task = await runSnippets("speech");
    expect(task.input).toMatchObject({ input: "It's copied from the console.", voice: "en_male_atlas" });
  });

  it("writes an image request the same way", async () => {
    await desk.goto(`${h.baseUrl}/#/try/text_to_image`);
    await desk.locator('[id="field/prompt"]').fill("A kite, from a snippet");
    await desk.locator('[id="field/count"] .segment', { hasText: "2" }).click();
    await desk.locator("details.request-code summary").click();
    await desk.locator("details.request-code pre.code", { hasText: '"count": 2' }).waitFor();
    const task = await runSnippets("image");
    expect(task.input).toMatchObject({ prompt: "A kite, from a snippet", count: 2 });
  });

  it("writes TypeScript that type-checks under strict tsc against the client", async () => {
    expect(typescriptSnippets).toHaveLength(2);
    const tsc = ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node", ...typescriptSnippets];
    const compiled = await run(path.join(ROOT, "node_modules/.bin/tsc"), tsc, { cwd: scratch }).then(
      () => "",
      (error: { stdout: string }) => error.stdout,
    );
    expect(compiled).toBe("");
  });

  it("runs on Ctrl+Enter, counts a text's length at its field, sorts what it offers and says it in people's words", async () => {
    await desk.goto(`${h.baseUrl}/#/try/text_to_video`);
    await desk.locator('form[aria-label="text_to_video request"]').waitFor();
    // Under auto, the live models' resolutions together, smallest first.
    const resolutions = (await desk.locator('[id="field/resolution"] .segment').allTextContents()).filter((r) => /^\d/.test(r));
    expect(resolutions.length).toBeGreaterThan(2);
    expect(resolutions).toEqual([...resolutions].sort((a, b) => parseInt(a) - parseInt(b)));
    // Under a group of offered values, no schema phrase ("1 to 16 characters", "default \"16:9\"").
    for (const help of await desk.locator('.segments[role="radiogroup"] ~ .hint').allTextContents()) {
      expect(help).not.toMatch(/characters|\d+ to \d+|default "/);
    }

    await desk.goto(`${h.baseUrl}/#/try/text_to_image`);
    const prompt = desk.locator('[id="field/prompt"]');
    await prompt.fill("Run from the keyboard 🙂");
    const counter = desk.locator('[id="field/prompt-help"] .counter');
    expect(await counter.textContent()).toBe("23 / 20,000");
    await prompt.fill("x".repeat(20_012));
    expect(await counter.textContent()).toBe("20,012 / 20,000 · 12 too many");
    expect(await counter.getAttribute("class")).toContain("error-text");
    expect(await desk.locator('[id="field/prompt-help"]').textContent()).not.toContain("at most 20000 characters");
    expect(await screenshot(browser, "length-counter-desktop", { fullPage: false })).toBeGreaterThan(1);
    await prompt.fill("Run from the keyboard");
    await prompt.press("Control+Enter");
    await desk.locator('.output article.task[data-status="succeeded"]').waitFor({ timeout: 60_000 });
    expect(await desk.locator(".output article.task h3").textContent()).toContain("Run from the keyboard");
  });

  it("shows a running task's steps with their times, against how long the model usually takes", async () => {
    // One video on the model before: the account's history is what "typically" is measured from.
    const before = await h.request("POST", "/v1/videos/text-to-video", { body: { prompt: "A first boat", model: "vendorB-2-mini" }, idempotencyKey: `steps-${Date.now()}` });
    expect(before.status).toBe(202);
    await waitForTask(h, before.body.task_id, ["succeeded"]);

    await desk.goto(`${h.baseUrl}/#/try/text_to_video`);
    await desk.locator('[id="field/model"]').selectOption("vendorB-2-mini");
    await desk.locator('[id="field/prompt"]').fill("A paper boat drifting down a rain-soaked street");
    await desk.locator("button.run").click();
    const steps = desk.locator(".output .task-steps");
    await steps.locator('li[data-step="vendor"]').waitFor({ timeout: 30_000 });
    const taskId = (await desk.locator(".output article.task").getAttribute("data-task-id")) ?? "";
    expect(await steps.locator("li").first().textContent()).toMatch(/^0\.0 s Queued/);
    expect(await steps.locator("[data-typical]").textContent()).toMatch(/vendorB-2-mini typically takes \d+\.\d s \(median of your last 1 task on it\)/);
    expect(await screenshot(browser, "steps-desktop", { fullPage: false })).toBeGreaterThan(1);

    // Opened while it runs, on a phone: its steps from then on.
    await phone.goto(`${h.baseUrl}/#/history/${taskId}`);
    await phone.locator(".task-detail .task-steps li").first().waitFor();
    expect(await fitsWidth(phone)).toBe(true);
    expect(await screenshot(browser, "steps-phone", { page: phone, fullPage: false })).toBeGreaterThan(1);

    await desk.locator('.output article.task[data-status="succeeded"]').waitFor({ timeout: 60_000 });
    const keys = await steps.locator("li").evaluateAll((all: { dataset: { step: string } }[]) => all.map((li) => li.dataset.step));
    expect(keys[0]).toBe("queued");
    expect(keys).toContain("vendor");
    expect(keys[keys.length - 1]).toBe("succeeded");
    const times = (await steps.locator(".step-time").allTextContents()).map((t) => parseFloat(t));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const task = (await h.request("GET", `/v1/tasks/${taskId}`)).body;
    const took = (Date.parse(task.completed_at) - Date.parse(task.created_at)) / 1000;
    expect(await steps.locator(".step-clock").textContent()).toContain(`Took ${took.toFixed(1)} s`);
  });

  it("runs one request on two models side by side, each its own task and price, and keeps one", async () => {
    for (const page of [desk, phone]) {
      await page.goto(`${h.baseUrl}/#/try/text_to_image`);
      await page.locator('[id="field/prompt"]').fill("Two kites, two models");
      await page.locator("details.side-by-side summary").click();
      const boxes = page.locator("details.side-by-side input[type=checkbox]");
      expect(await boxes.count()).toBeGreaterThan(1);
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      await page.getByRole("button", { name: "Run on 2 models" }).click();
      await page.locator('.compare-column[data-status="succeeded"]').nth(1).waitFor({ timeout: 60_000 });
      expect(await page.locator(".compare-column").count()).toBe(2);
      expect(await fitsWidth(page)).toBe(true);
    }
    const columns = desk.locator(".compare-column");
    const models = await columns.evaluateAll((all: { dataset: { model: string } }[]) => all.map((c) => c.dataset.model));
    expect(new Set(models).size).toBe(2);
    for (const [i, model] of models.entries()) {
      const column = columns.nth(i);
      expect(await column.locator("h3").textContent()).toBe(model);
      expect(await column.locator("[data-cost]").textContent()).toMatch(/^0\.\d+ credits$/);
      expect(await column.locator("[data-took]").textContent()).toMatch(/^\d+\.\d s$/);
      await column.locator(".gallery img").waitFor();
    }
    // Two tasks, each on its model, with its own key.
    const tasks = (await h.request("GET", "/v1/tasks?capability=text_to_image&limit=10")).body.data.filter((t: { input: { prompt: string } }) => t.input.prompt === "Two kites, two models");
    expect(tasks.length).toBe(4);
    expect(await screenshot(browser, "side-by-side-desktop", { fullPage: false })).toBeGreaterThan(1);
    await phone.locator(".comparison").scrollIntoViewIfNeeded();
    expect(await screenshot(browser, "side-by-side-phone", { page: phone, fullPage: false })).toBeGreaterThan(1);

    await columns.nth(1).getByRole("button", { name: "Keep this one" }).click();
    await desk.locator(".output article.task").waitFor();
    expect(await desk.locator(".compare-column").count()).toBe(0);
    expect(await desk.locator('[id="field/model"]').inputValue()).toBe(models[1]);
    expect(await desk.locator(".output .task-facts").textContent()).toContain(models[1]);
  });

  it("offers examples with the outputs the service made of them, loaded into the form with a click", async () => {
    // A fresh form: the tab shows the task kept from the side by side.
    await desk.goto(`${h.baseUrl}/#/history`);
    await desk.goto(`${h.baseUrl}/#/try/text_to_image`);
    const lighthouse = desk.locator('.examples li[data-example="lighthouse"]');
    await lighthouse.waitFor();
    expect(await desk.locator(".examples li.example").count()).toBeGreaterThan(1);
    const pictures = await lighthouse.locator("img").evaluateAll((all: ImageElement[]) => Promise.all(all.map(async (image) => (await image.decode(), image.naturalWidth))));
    expect(pictures).toEqual([2048, 2048]);
    expect(await screenshot(browser, "examples-desktop", { fullPage: false })).toBeGreaterThan(1);
    await lighthouse.getByRole("button", { name: "Load into the form" }).click();
    expect(await desk.locator('[id="field/prompt"]').inputValue()).toBe("A lighthouse on a cliff at dawn, watercolor");
    expect(await desk.locator('[id="field/count"] .segment.checked').textContent()).toBe("2");

    await desk.goto(`${h.baseUrl}/#/try/text_to_speech`);
    const news = desk.locator('.examples li[data-example="news"]');
    expect((await plays(news.locator("audio"))).currentTime).toBeGreaterThan(0);
    await news.getByRole("button", { name: "Load into the form" }).click();
    expect(await desk.locator('[id="field/input"]').inputValue()).toBe("Good evening. Here is the news at seven.");
    await desk.locator('[id="field/voice"]').locator('option[value="en_male_atlas"]').waitFor({ state: "attached" });
    expect(await desk.locator('[id="field/voice"]').inputValue()).toBe("en_male_atlas");
    expect(await desk.locator('[id="field/format"] .segment.checked').textContent()).toBe("wav");

    await phone.goto(`${h.baseUrl}/#/try/text_to_video`);
    const boat = phone.locator('.examples li[data-example="boat"]');
    expect((await plays(boat.locator("video"))).duration).toBeGreaterThan(1);
    await boat.scrollIntoViewIfNeeded();
    expect(await fitsWidth(phone)).toBe(true);
    expect(await screenshot(browser, "examples-phone", { page: phone, fullPage: false })).toBeGreaterThan(1);
    await boat.getByRole("button", { name: "Load into the form" }).click();
    expect(await phone.locator('[id="field/model"]').inputValue()).toBe("vendorB-2-mini");
  });
});
