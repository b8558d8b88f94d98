import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

// Debian's chromium (installed by .ci/run), headless, driven by playwright-core: a fresh profile per test file,
// no network beyond the service under test, no sandbox (tests run as root in CI containers).
export const CHROMIUM = "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // The tests start players from script, as a click would.
  "--autoplay-policy=no-user-gesture-required",
];

export const ARTIFACTS_DIR = path.resolve(import.meta.dirname, "../../test-artifacts/console");

export interface Browser {
  context: BrowserContext;
  page: Page;
  // What the page logged as errors (CSP violations, failed loads, exceptions), for the test to hold to none.
  problems: string[];
  close(): Promise<void>;
}

export async function openBrowser(): Promise<Browser> {
  const profile = await mkdtemp(path.join(tmpdir(), "console-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 900 } });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return {
    context,
    page,
    problems,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

// A screenshot of the whole page, kept under test-artifacts/console/, and the number of distinct colours in it
// (counted by the browser itself from the PNG, on a blank page of its own): one colour is a blank page.
export async function screenshot(browser: Browser, name: string): Promise<number> {
  const png = await browser.page.screenshot({ fullPage: true });
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  await writeFile(path.join(ARTIFACTS_DIR, `${name}.png`), png);
  const blank = await browser.context.newPage();
  try {
    return await blank.evaluate(`(async () => {
      const image = new Image();
      image.src = "data:image/png;base64,${png.toString("base64")}";
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext("2d");
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      const colours = new Set();
      for (let i = 0; i < pixels.length && colours.size < 1000; i += 4) colours.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
      return colours.size;
    })()`);
  } finally {
    await blank.close();
  }
}
