import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Locator, Page } from "playwright-core";
import { admin, parseCredits } from "../../core/index.js";
import { voiceLike } from "../providers/audio-support.js";
import { startHarness, waitForTask, type Harness } from "../support/harness.js";
import { DESKTOP, openBrowser, PHONE, screenshot, type Browser } from "./browser.js";

// The web console as a playground, in a real headless Chromium against a whole service (REST, worker, vendor
// emulator), in two windows at once: a laptop's (1280×800) and a phone's (390×844). For each family of
// capabilities (images, video, speech and music, understanding, voice clone): the run button is in sight without
// scrolling, enumerated values are offered rather than typed, the price follows the form, the result shows or
// plays; History updates by itself and shows pictures; cancel is offered only where it works; the ledger pages;
// nothing is wider than the phone. Screenshots of every page go to test-artifacts/console.

// Each test runs real tasks through the worker and renders them in two browser tabs (about 10 s alone, more
// beside other test files on two cores), like the video provider tests.
vi.setConfig({ testTimeout: 90_000 });

let h: Harness;
let browser: Browser;
let desk: Page;
let phone: Page;

beforeAll(async () => {
  [h, browser] = await Promise.all([startHarness({ worker: true, credits: "1000", env: { WORKER_POLL_INTERVAL_MS: "100" } }), openBrowser(DESKTOP)]);
  desk = browser.page;
  phone = await browser.newPage(PHONE);
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

// The parts of the page's elements the tests touch (the test code is typed for Node, without the DOM's types).
interface MediaElement {
  currentTime: number;
  duration: number;
  readyState: number;
  play(): Promise<void>;
  pause(): void;
  addEventListener(type: string, listener: (value: unknown) => void, options: { once: boolean }): void;
}
interface ImageElement {
  naturalWidth: number;
  naturalHeight: number;
  width: number;
  decode(): Promise<void>;
}

const micro = (credits: string) => BigInt(credits.replace(".", ""));

// What the pages logged as errors, less the failed-request lines Chromium logs for every 4xx a test provokes.
const pageProblems = () => browser.problems.filter((text) => !text.startsWith("Failed to load resource: the server responded with a status of 4"));

const size = (page: Page) => page.viewportSize() ?? DESKTOP;
const named = (page: Page) => (page === phone ? "phone" : "desktop");

async function signIn(page: Page) {
  await page.goto(`${h.baseUrl}/`);
  await page.fill("#api-key", h.apiKey);
  await page.getByRole("button", { name: "Open the console" }).click();
  await page.getByRole("navigation", { name: "Console" }).waitFor();
}

// Whole inside the window, without scrolling.
async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.y >= 0 && box.x >= 0 && box.y + box.height <= size(page).height && box.x + box.width <= size(page).width;
}

// Nothing is wider than the window: no sideways scrolling.
async function fitsWidth(page: Page): Promise<boolean> {
  return (await page.evaluate<number>("document.documentElement.scrollWidth")) <= size(page).width;
}

async function open(page: Page, capability: string) {
  await page.goto(`${h.baseUrl}/#/try/${capability}`);
  await page.locator(`form[aria-label="${capability} request"]`).waitFor();
  // The run button is in sight before anything is scrolled or typed.
  expect(await inView(page, page.locator("button.run")), `${capability}: run button in view on the ${named(page)}`).toBe(true);
  expect(await fitsWidth(page), `${capability} fits the ${named(page)}`).toBe(true);
}

// The price the form stands at, once quoted, as the API's decimal string.
async function quoted(page: Page): Promise<string> {
  const price = page.locator('.run-bar [data-quote="price"]');
  await price.waitFor();
  return (await price.getAttribute("data-credits")) ?? "";
}

async function run(page: Page): Promise<string> {
  await page.locator("button.run").click();
  const task = page.locator(".output article.task");
  await task.waitFor();
  const taskId = (await task.getAttribute("data-task-id")) ?? "";
  await page.locator(`.output article.task[data-status="succeeded"]`).waitFor({ timeout: 60_000 });
  return taskId;
}

// The choices a field offers, as its buttons' words.
async function offered(page: Page, pointer: string): Promise<string[]> {
  return page.locator(`[id="field${pointer}"] .segment`).allTextContents();
}

async function plays(media: Locator): Promise<{ currentTime: number; duration: number }> {
  return media.evaluate(async (element: MediaElement) => {
    if (element.readyState < 1) await new Promise((resolve) => element.addEventListener("loadedmetadata", resolve, { once: true }));
    await element.play();
    while (element.currentTime === 0) await new Promise((resolve) => element.addEventListener("timeupdate", resolve, { once: true }));
    element.pause();
    return { currentTime: element.currentTime, duration: element.duration };
  });
}

// Code run in the page, written as text: the test code is typed without the DOM.
function inPage<A>(parameters: string[], body: string): (element: unknown, argument: A) => Promise<unknown> {
  return new Function(...parameters, `return (async () => { ${body} })();`) as (element: unknown, argument: A) => Promise<unknown>;
}

// A PNG made by the page itself, dropped on (or pasted into) a media input as a person would.
const dropImage = inPage<"drop" | "paste">(
  ["element", "how"],
  `const canvas = document.createElement("canvas");
   canvas.width = 640;
   canvas.height = 480;
   const context = canvas.getContext("2d");
   context.fillStyle = "#2a7";
   context.fillRect(0, 0, 640, 480);
   context.fillStyle = "#fc3";
   context.fillRect(200, 120, 240, 240);
   const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
   const transfer = new DataTransfer();
   transfer.items.add(new File([blob], "square.png", { type: "image/png" }));
   const init = { bubbles: true, cancelable: true };
   element.dispatchEvent(how === "drop" ? new DragEvent("drop", { ...init, dataTransfer: transfer }) : new ClipboardEvent("paste", { ...init, clipboardData: transfer }));`,
);

const displayOf = inPage<undefined>(["element"], "return getComputedStyle(element).display;");
const widthOf = inPage<undefined>(["element"], "return element.width;");

describe("the web console", () => {
  it("is served at / with a CSP of its own origin, and leaves /v1 and /healthz to the API", async () => {
    const index = await fetch(`${h.baseUrl}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(index.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(index.headers.get("cache-control")).toBe("no-cache");
    const revalidated = await fetch(`${h.baseUrl}/`, { headers: { "if-none-match": index.headers.get("etag") ?? "" } });
    expect(revalidated.status).toBe(304);
    expect((await fetch(`${h.baseUrl}/console/main.js`)).headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await fetch(`${h.baseUrl}/console/nothing.js`)).status).toBe(404);
    expect((await fetch(`${h.baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${h.baseUrl}/v1/credits`)).status).toBe(401);
  });

  it("takes an API key, in each tab", async () => {
    await phone.goto(`${h.baseUrl}/`);
    expect(await screenshot(browser, "key-gate-phone", { page: phone })).toBeGreaterThan(1);
    await Promise.all([signIn(desk), signIn(phone)]);
  });

  it("images: choices offered, the price follows the form, the image shows at its own size", async () => {
    await open(desk, "text_to_image");
    // Count and tier are buttons, the model a list with each model's state and price; nothing of them is typed.
    expect(await offered(desk, "/count")).toEqual(["Default (1)", "1", "2", "3", "4"]);
    expect(await offered(desk, "/canvas/tier")).toEqual(expect.arrayContaining(["1K", "2K", "4K"]));
    expect(await desk.locator('input[type="text"][id^="field/canvas"]').count()).toBe(0);
    expect(await desk.locator('[id="field/model"] option').allTextContents()).toContainEqual(expect.stringMatching(/^vendorE-image-2\.5-flare · live · (from )?0\.\d+ credits per image$/));
    await desk.locator('[id="field/prompt"]').fill("A red kite over green hills");
    const one = await quoted(desk);
    await desk.locator('[id="field/count"] .segment', { hasText: "2" }).click();
    await desk.locator(`.run-bar [data-quote="price"]:not([data-credits="${one}"])`).waitFor();
    expect(micro(await quoted(desk))).toBe(2n * micro(one));
    await desk.locator('[id="field/count"] .segment', { hasText: "1" }).first().click();
    await run(desk);
    const images = desk.locator(".output .gallery img");
    expect(await images.count()).toBe(1);
    const shown = await images.first().evaluate(async (image: ImageElement) => {
      await image.decode();
      return { natural: image.naturalWidth, height: image.naturalHeight, width: image.width };
    });
    expect(shown.natural).toBe(2048);
    expect(shown.height).toBe(1152);
    expect(shown.width).toBeGreaterThan(600);
    expect(await desk.locator(".output figcaption").first().textContent()).toContain("2048×1152");
    expect(await screenshot(browser, "try-image-desktop", { fullPage: false })).toBeGreaterThan(1);

    await open(phone, "text_to_image");
    await phone.locator('[id="field/prompt"]').fill("A kite on a phone");
    await quoted(phone);
    await run(phone);
    const small = await phone.locator(".output .gallery img").first().evaluate(async (image: ImageElement) => {
      await image.decode();
      return image.width;
    });
    expect(small).toBeLessThanOrEqual(PHONE.width);
    expect(await fitsWidth(phone)).toBe(true);
    expect(await screenshot(browser, "try-image-phone", { page: phone })).toBeGreaterThan(1);
  });

  it("video: the image used as input becomes a video that plays, which goes on to extend; a phone plays one too", async () => {
    // The image of the previous test, handed to image to video.
    await desk.locator(".output details.menu summary").first().click();
    await desk.getByRole("button", { name: /Image to video/ }).click();
    await desk.locator('form[aria-label="image_to_video request"]').waitFor();
    await desk.locator('.media-input.chosen img.preview').waitFor();
    expect(await inView(desk, desk.locator("button.run"))).toBe(true);
    await desk.locator('[id="field/model"]').selectOption("vendorB-2-mini");
    // The model's card says what it takes: its durations, as buttons.
    expect(await offered(desk, "/duration")).toEqual(["Default (5)", "5", "10", "auto"]);
    await quoted(desk);
    await run(desk);
    const video = desk.locator(".output video");
    const played = await plays(video);
    expect(played.duration).toBeGreaterThan(0);
    expect(played.currentTime).toBeGreaterThan(0);
    expect(await screenshot(browser, "try-video-desktop", { fullPage: false })).toBeGreaterThan(1);
    await desk.locator(".output details.menu summary").first().click();
    await desk.getByRole("button", { name: /Video extend/ }).click();
    await desk.locator('form[aria-label="video_extend request"] .media-input.chosen video').waitFor();
    expect(await offered(desk, "/direction")).toEqual(["before", "after"]);
    // Extend's own bounds, from the model's card (extend_min_duration to extend_max_duration), not its clip lengths.
    await desk.locator('[id="field/model"]').selectOption("vendorB-2-mini");
    const { extend_min_duration: min, extend_max_duration: max } = (await h.request("GET", "/v1/catalog/models/vendorB-2-mini")).body.constraints;
    const lengths = (await offered(desk, "/duration")).concat((await desk.locator('select[id="field/duration"] option').allTextContents()).slice(1));
    expect(lengths.map(Number)).toEqual(Array.from({ length: max - min + 1 }, (_, i) => min + i));

    await open(phone, "text_to_video");
    await phone.locator('[id="field/model"]').selectOption("vendorB-2-mini");
    await quoted(phone);
    await run(phone);
    expect((await plays(phone.locator(".output video"))).currentTime).toBeGreaterThan(0);
    expect(await fitsWidth(phone)).toBe(true);
    expect(await screenshot(browser, "try-video-phone", { page: phone })).toBeGreaterThan(1);
  });

  it("speech and music: voices offered with a sample to hear; the audio plays with its length, and the balance pays for it", async () => {
    const before = (await h.request("GET", "/v1/credits")).body.available_credits as string;
    await open(desk, "text_to_speech");
    await desk.locator('[id="field/voice"] option[value="en_male_atlas"]').waitFor({ state: "attached" });
    expect(await desk.locator('[id="field/voice"] option').count()).toBeGreaterThan(8);
    expect(await offered(desk, "/format")).toEqual(expect.arrayContaining(["mp3", "wav"]));
    await desk.locator('[id="field/voice"]').selectOption("en_male_atlas");
    const speechTasksBefore = (await h.request("GET", "/v1/tasks?capability=text_to_speech&limit=100")).body.data.length;
    // A preset's stock sample is free: no price on the button, no task, nothing charged.
    await desk.getByRole("button", { name: "▶ Hear Atlas" }).click();
    expect((await plays(desk.locator("audio.voice-sample"))).currentTime).toBeGreaterThan(0);
    expect(await desk.locator("audio.voice-sample").getAttribute("src")).toBe("/v1/voices/en_male_atlas/sample");
    expect((await h.request("GET", "/v1/tasks?capability=text_to_speech&limit=100")).body.data.length).toBe(speechTasksBefore);
    expect((await h.request("GET", "/v1/credits")).body.available_credits).toBe(before);
    expect(await screenshot(browser, "try-speech-sample", { fullPage: false })).toBeGreaterThan(1);
    await desk.locator('[id="field/input"]').fill("The console speaks through the real worker.");
    const price = await quoted(desk);
    const taskId = await run(desk);
    expect((await plays(desk.locator(".output audio"))).currentTime).toBeGreaterThan(0);
    expect(await desk.locator(".output figcaption .caption").textContent()).toMatch(/mp3 · 0:0\d\.\d/);
    expect(await screenshot(browser, "try-speech-desktop", { fullPage: false })).toBeGreaterThan(1);
    const task = (await h.request("GET", `/v1/tasks/${taskId}`)).body;
    expect(task.billing.net_charged_credits).toBe(price);
    const after = (await h.request("GET", "/v1/credits")).body.available_credits as string;
    expect(micro(before) - micro(after)).toBe(micro(task.billing.net_charged_credits));

    await open(phone, "text_to_music");
    expect(await phone.locator('[id="field/model"] option').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^vendorA-music-3\.0 · live · /)]));
    await quoted(phone);
    await run(phone);
    const clips = phone.locator(".output audio");
    expect(await clips.count()).toBeGreaterThan(0);
    expect((await plays(clips.first())).duration).toBeGreaterThan(1);
    expect(await phone.locator(".output figcaption .caption").first().textContent()).toMatch(/\d:\d\d\.\d/);
    expect(await fitsWidth(phone)).toBe(true);
    expect(await screenshot(browser, "try-music-phone", { page: phone })).toBeGreaterThan(1);
  });

  it("understanding: an image dropped in on a desktop, pasted in on a phone, is uploaded, shown and described", async () => {
    for (const [page, how] of [
      [desk, "drop"],
      [phone, "paste"],
    ] as const) {
      await open(page, "image_to_text");
      await page.locator('[id="field/model"]').selectOption("vendorA-M3");
      await page.locator('[id="field/images/0"]').waitFor();
      await page.locator(".drop-zone").first().evaluate(dropImage, how);
      await page.locator(".media-input.chosen img.preview").waitFor();
      expect(await page.locator(".media-input.chosen code").textContent()).toMatch(/^art_/);
      await quoted(page);
      await run(page);
      expect((await page.locator(".output .output-text p").textContent())?.length).toBeGreaterThan(10);
      expect(await fitsWidth(page)).toBe(true);
      expect(await screenshot(browser, `try-understanding-${named(page)}`, { page, fullPage: page === phone })).toBeGreaterThan(1);
    }
  });

  it("voice clone: a sample picked as a file becomes a voice, heard from its own preview and offered for speech", async () => {
    await open(phone, "voice_clone");
    await open(desk, "voice_clone");
    await desk.locator('[id="field/sample"]').setInputFiles({ name: "narrator.mp3", mimeType: "audio/mpeg", buffer: await voiceLike(110, 12) });
    await desk.locator(".media-input.chosen audio").waitFor();
    // The name and the consent are the person's to give: nothing is filled in or ticked for them.
    expect(await desk.locator('[id="field/display_name"]').inputValue()).toBe("");
    expect(await desk.locator('[id="field/consent_attested"]').isChecked()).toBe(false);
    expect(await screenshot(browser, "try-voice-clone", { fullPage: false })).toBeGreaterThan(1);
    await desk.locator('[id="field/display_name"]').fill("Console narrator");
    await desk.locator('[id="field/consent_attested"]').check();
    await quoted(desk);
    await run(desk);
    const voiceId = ((await desk.locator(".output .output-voice code").textContent()) ?? "").trim();
    expect(voiceId).toMatch(/^voice_/);
    await desk.getByRole("button", { name: "Speak with it" }).click();
    await desk.locator('form[aria-label="text_to_speech request"]').waitFor();
    // The form shows before the voices it offers have loaded; the new voice is chosen once they have.
    await expect.poll(() => desk.locator('[id="field/voice"]').inputValue()).toBe(voiceId);
    const tasksBefore = (await h.request("GET", "/v1/tasks?limit=100")).body.data.length;
    await desk.getByRole("button", { name: "▶ Hear Console narrator" }).click();
    expect((await plays(desk.locator("audio.voice-sample"))).duration).toBeGreaterThan(1);
    // The clone's own preview: no speech task was made for it.
    expect((await h.request("GET", "/v1/tasks?limit=100")).body.data.length).toBe(tasksBefore);
  });

  it("History updates by itself and shows pictures; a task opens beside the list, or alone at its own address on a phone", async () => {
    await phone.goto(`${h.baseUrl}/#/history`);
    await phone.locator(".task-card").first().waitFor();
    // Made elsewhere (here, the API): the open list picks it up and follows it to its end, picture included.
    const created = await h.request("POST", "/v1/images/generations", { body: { prompt: "Made outside the console" }, idempotencyKey: `history-${Date.now()}` });
    expect(created.status).toBe(202);
    const card = phone.locator(`.task-card[data-task-id="${created.body.task_id}"]`);
    await card.waitFor({ timeout: 15_000 });
    await phone.locator(`.task-card[data-task-id="${created.body.task_id}"][data-status="succeeded"] img.thumb`).waitFor({ timeout: 30_000 });
    expect(await card.locator(".task-prompt").textContent()).toBe("Made outside the console");
    expect(await card.locator("[data-cost]").textContent()).toMatch(/credits$/);
    expect(await fitsWidth(phone)).toBe(true);
    expect(await screenshot(browser, "history-phone", { page: phone, fullPage: false })).toBeGreaterThan(1);
    await card.locator("a").click();
    await phone.locator(".task-detail article.task .gallery img").waitFor();
    expect(phone.url()).toContain(`#/history/${created.body.task_id}`);
    expect(await phone.locator(".history-list").isVisible()).toBe(false);
    expect(await screenshot(browser, "history-task-phone", { page: phone, fullPage: false })).toBeGreaterThan(1);

    await desk.goto(`${h.baseUrl}/#/history`);
    // A video's first frame, drawn once its frame is read.
    await desk.locator(".task-card canvas.thumb").first().waitFor();
    await expect.poll(() => desk.locator(".task-card canvas.thumb").first().evaluate(widthOf, undefined)).toBeGreaterThan(300);
    expect(await desk.locator(".task-card img.thumb").count()).toBeGreaterThan(2);
    await desk.locator(`.task-card[data-task-id="${created.body.task_id}"] a`).click();
    await desk.locator(".task-detail article.task .gallery img").waitFor();
    const [list, detail] = await Promise.all([desk.locator(".history-list").boundingBox(), desk.locator(".task-detail").boundingBox()]);
    expect(detail!.x).toBeGreaterThan(list!.x + list!.width - 1);
    expect(await screenshot(browser, "history-desktop", { fullPage: false })).toBeGreaterThan(1);
    await desk.selectOption("#history-capability", "text_to_video");
    await desk.locator(".task-card", { hasText: "Text to image" }).first().waitFor({ state: "detached" });
    await desk.locator(".task-card").first().locator("a").click();
    await desk.locator(".task-detail article.task video").waitFor();
  });

  it("offers cancel only where the service can cancel, and says why not elsewhere", async () => {
    const fault = (family: string, model: string) =>
      fetch(`${h.emulatorUrl}/_emulator/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ family, model, kind: "hang" }) });
    expect((await fault("vendorC", "vendorC2.7-t2v")).status).toBe(201);
    expect((await fault("vendorB", "vendorB-2-fast")).status).toBe(201);
    const start = async (model: string) => {
      const created = await h.request("POST", "/v1/videos/text-to-video", { body: { prompt: `Held at ${model}`, model }, idempotencyKey: `cancel-${model}` });
      await waitForTask(h, created.body.task_id, ["running"]);
      return created.body.task_id as string;
    };
    const [stuck, stoppable] = await Promise.all([start("vendorC2.7-t2v"), start("vendorB-2-fast")]);

    await desk.goto(`${h.baseUrl}/#/history/${stuck}`);
    await desk.locator(".task-detail .cancel-reason", { hasText: "vendorC2.7-t2v, which cannot stop work once started" }).waitFor();
    expect(await desk.getByRole("button", { name: "Cancel task" }).count()).toBe(0);

    await desk.goto(`${h.baseUrl}/#/history/${stoppable}`);
    await desk.getByRole("button", { name: "Cancel task" }).click();
    await desk.locator(`.task-detail article.task[data-status="canceled"]`).waitFor({ timeout: 30_000 }).catch(async (error: Error) => {
      const task = (await h.request("GET", `/v1/tasks/${stoppable}`)).body;
      throw new Error(`${error.message}\nthe API says ${task.status} (cancel requested ${task.cancel_requested_at}); the page shows ${await desk.locator(".task-detail").textContent()}`);
    });
    // An ended cancel says it was canceled, not that it was requested.
    await desk.locator(".task-detail .cancel-notice", { hasText: "Canceled." }).waitFor();
    expect(await desk.locator(".task-detail").textContent()).not.toContain("Cancellation requested");
    expect(await screenshot(browser, "task-canceled", { fullPage: false })).toBeGreaterThan(1);
    await fetch(`${h.emulatorUrl}/_emulator/faults`, { method: "DELETE" });
  });

  it("the account's ledger, newest first, a page at a time; cards on a phone", async () => {
    for (let i = 1; i <= 30; i++) await admin.grantTenantCredits(h.core.db, h.tenantId, parseCredits("0.000001"), `console grant ${i}`);
    await desk.goto(`${h.baseUrl}/#/account`);
    const rows = desk.locator("table.ledger tbody tr");
    await rows.first().waitFor();
    expect(await rows.count()).toBe(25);
    expect(await rows.first().textContent()).toContain("console grant 30");
    expect(await screenshot(browser, "account-desktop", { fullPage: false })).toBeGreaterThan(1);
    const newest = Number(await rows.first().getAttribute("data-entry"));
    await desk.getByRole("button", { name: "Older entries" }).click();
    await desk.locator("table.ledger caption", { hasText: "page 2" }).waitFor();
    expect(await rows.count()).toBe(25);
    expect(Number(await rows.first().getAttribute("data-entry"))).toBeLessThan(newest - 24);
    await desk.getByRole("button", { name: "Newer entries" }).click();
    await desk.locator("table.ledger tbody tr").first().filter({ hasText: "console grant 30" }).waitFor();

    await phone.goto(`${h.baseUrl}/#/account`);
    await phone.locator("table.ledger tbody tr").first().waitFor();
    expect(await phone.locator("table.ledger tbody tr").first().evaluate(displayOf, undefined)).toBe("block");
    expect(await fitsWidth(phone)).toBe(true);
    expect(await screenshot(browser, "account-phone", { page: phone, fullPage: false })).toBeGreaterThan(1);
  });

  it("shows the service's refusal at the field it points at", async () => {
    await open(desk, "text_to_image");
    await desk.locator('[id="field/prompt"]').fill("   ");
    await desk.locator("button.run").click();
    const error = desk.locator('[id="field/prompt-error"]');
    await error.waitFor();
    expect(await desk.locator('[id="field/prompt"]').getAttribute("aria-invalid")).toBe("true");
    expect(await desk.evaluate("document.activeElement.id")).toBe("field/prompt");
    expect(await desk.locator(".inputs .error strong").first().textContent()).toBe("invalid_request");
  });

  it("creates and rotates a callback signing key, showing each secret once", async () => {
    await desk.goto(`${h.baseUrl}/#/account`);
    await desk.fill("#key-name", "console receiver");
    await desk.getByRole("button", { name: "Create key" }).click();
    const secret = desk.locator(".secret code.mono");
    await secret.waitFor();
    const keyId = (await secret.getAttribute("data-secret")) ?? "";
    const created = await secret.textContent();
    await desk.getByRole("button", { name: "I have stored it" }).click();
    await desk.getByRole("button", { name: `Rotate ${keyId}` }).click();
    await desk.locator(".secret").getByText("rotated").waitFor();
    const rotated = await secret.textContent();
    expect(rotated).toMatch(/\S{20,}/);
    expect(rotated).not.toBe(created);
    expect(await desk.locator(`tr[data-key-id="${keyId}"] td`).nth(4).textContent()).not.toBe("—");
    expect(pageProblems()).toEqual([]);
  });
});
