import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "../support/harness.js";
import { openBrowser, screenshot, type Browser } from "./browser.js";

// The web console in a real headless Chromium against a whole service (REST, worker, vendor emulator): a user
// enters a key, tries capabilities through the generated forms, plays and sees the results, meets a refusal at
// its field, watches the balance, and rotates a signing key. Screenshots of the pages go to test-artifacts/console.

// Each test runs a real task through the worker and renders it in the browser (about 10 s alone, more beside other
// test files on two cores), like the video provider tests.
vi.setConfig({ testTimeout: 60_000 });

let h: Harness;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [h, browser] = await Promise.all([startHarness({ worker: true, credits: "1000", env: { WORKER_POLL_INTERVAL_MS: "100" } }), openBrowser()]);
  page = browser.page;
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

// The parts of the page's media elements the tests touch (the test code is typed for Node, without the DOM's types).
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
  decode(): Promise<void>;
}

// Credits as micro-credits, as the API's decimal strings carry them.
const micro = (credits: string) => BigInt(credits.replace(".", ""));

// What the page logged as errors, less the failed-request lines Chromium logs for every 4xx a test provokes.
const pageProblems = () => browser.problems.filter((text) => !text.startsWith("Failed to load resource: the server responded with a status of 4"));

async function chooseCapability(capability: string) {
  await page.goto(`${h.baseUrl}/#/try`);
  await page.selectOption("#capability", capability);
  await page.locator(`form[aria-label="${capability} request"]`).waitFor();
}

async function field(pointer: string) {
  return page.locator(`[id="field${pointer}"]`);
}

// Quote, then create: the quote must be on the page before the create button is enabled.
async function quoteAndCreate(): Promise<{ taskId: string; price: string }> {
  await page.getByRole("button", { name: "Get quote" }).click();
  const price = (await page.locator('[data-quote="price"]').textContent()) ?? "";
  await page.getByRole("button", { name: "Create task" }).click();
  const task = page.locator("article.task");
  await task.waitFor();
  const taskId = (await task.getAttribute("data-task-id")) ?? "";
  await page.locator(`article.task[data-status="succeeded"]`).waitFor({ timeout: 50_000 });
  return { taskId, price };
}

async function availableCredits(): Promise<string> {
  await page.goto(`${h.baseUrl}/#/account`);
  return (await page.locator('[data-balance="available"]').textContent()) ?? "";
}

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

  it("takes an API key and shows the balance", async () => {
    await page.goto(`${h.baseUrl}/`);
    expect(await screenshot(browser, "key-gate")).toBeGreaterThan(1);
    await page.fill("#api-key", h.apiKey);
    await page.getByRole("button", { name: "Open the console" }).click();
    await page.getByRole("navigation", { name: "Console" }).waitFor();
    expect(await availableCredits()).toBe("1000.000000");
  });

  it("creates a speech task, plays its audio, and the balance drops by the charged amount", async () => {
    const before = await availableCredits();
    await chooseCapability("text_to_speech");
    await (await field("/input")).fill("The console speaks through the real worker.");
    const { price } = await quoteAndCreate();
    const charged = (await page.locator('[data-billing="net_charged_credits"]').textContent()) ?? "";
    expect(micro(charged)).toBeGreaterThan(0n);
    expect(charged).toBe(price);
    const playback = await page.locator("article.task audio").evaluate(async (audio: MediaElement) => {
      await audio.play();
      while (audio.currentTime === 0) await new Promise((resolve) => audio.addEventListener("timeupdate", resolve, { once: true }));
      audio.pause();
      return { currentTime: audio.currentTime, readyState: audio.readyState };
    });
    expect(playback.currentTime).toBeGreaterThan(0);
    expect(playback.readyState).toBeGreaterThanOrEqual(2);
    expect(await screenshot(browser, "try-speech")).toBeGreaterThan(1);
    expect(micro(before) - micro(await availableCredits())).toBe(micro(charged));
  });

  it("creates an image and renders it", async () => {
    await chooseCapability("text_to_image");
    await (await field("/prompt")).fill("A red kite over green hills");
    await quoteAndCreate();
    const width = await page.locator("article.task .image-grid img").first().evaluate(async (image: ImageElement) => {
      await image.decode();
      return image.naturalWidth;
    });
    expect(width).toBeGreaterThan(0);
    expect(await screenshot(browser, "try-image")).toBeGreaterThan(1);
    // A phone-sized window: everything reflows into one column, nothing needs sideways scrolling.
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(360);
    expect(await screenshot(browser, "try-image-narrow")).toBeGreaterThan(1);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("creates a video and seeks it", async () => {
    await chooseCapability("text_to_video");
    await page.selectOption('[id="field/model"]', "vendorB-2-mini");
    await quoteAndCreate();
    const seek = await page.locator("article.task video").evaluate(async (video: MediaElement) => {
      if (video.readyState < 1) await new Promise((resolve) => video.addEventListener("loadedmetadata", resolve, { once: true }));
      const seeked = new Promise((resolve) => video.addEventListener("seeked", resolve, { once: true }));
      video.currentTime = video.duration / 2;
      await seeked;
      return { currentTime: video.currentTime, duration: video.duration };
    });
    expect(seek.duration).toBeGreaterThan(0);
    expect(seek.currentTime).toBeCloseTo(seek.duration / 2, 1);
    expect(await screenshot(browser, "try-video")).toBeGreaterThan(1);
  });

  it("shows the service's validation error at the field it points at", async () => {
    await chooseCapability("text_to_image");
    await (await field("/count")).fill("9");
    await page.getByRole("button", { name: "Get quote" }).click();
    const error = page.locator('[id="field/count-error"]');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/4/);
    expect(await (await field("/count")).getAttribute("aria-invalid")).toBe("true");
    expect(await page.evaluate("document.activeElement.id")).toBe("field/count");
    expect(await page.locator(".error strong").first().textContent()).toBe("invalid_request");
    expect(await page.getByRole("button", { name: "Create task" }).isDisabled()).toBe(true);
  });

  it("lists the tasks in History with filters and opens one", async () => {
    await page.goto(`${h.baseUrl}/#/history`);
    await page.locator("table.tasks tbody tr").nth(2).waitFor();
    await page.selectOption("#history-capability", "text_to_speech");
    await page.locator("table.tasks tbody tr").filter({ hasText: "text_to_video" }).waitFor({ state: "detached" });
    await page.locator("table.tasks tbody button.link").first().click();
    await page.locator('article.task[data-status="succeeded"] audio').waitFor();
    expect(await screenshot(browser, "history")).toBeGreaterThan(1);
  });

  it("creates and rotates a callback signing key, showing each secret once", async () => {
    await page.goto(`${h.baseUrl}/#/account`);
    await page.fill("#key-name", "console receiver");
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = page.locator(".secret code.mono");
    await secret.waitFor();
    const keyId = (await secret.getAttribute("data-secret")) ?? "";
    const created = await secret.textContent();
    await page.getByRole("button", { name: "I have stored it" }).click();
    await page.getByRole("button", { name: `Rotate ${keyId}` }).click();
    await page.locator(".secret").getByText("rotated").waitFor();
    const rotated = await secret.textContent();
    expect(rotated).toMatch(/\S{20,}/);
    expect(rotated).not.toBe(created);
    expect(await page.locator(`tr[data-key-id="${keyId}"] td`).nth(4).textContent()).not.toBe("—");
    expect(await screenshot(browser, "account")).toBeGreaterThan(1);
    expect(pageProblems()).toEqual([]);
  });
});
