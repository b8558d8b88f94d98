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

// The two windows the console is held to: a laptop's and a phone's (an iPhone 12 to 15 in CSS pixels).
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface Browser {
  context: BrowserContext;
  page: Page;
  // What the pages logged as errors (CSP violations, failed loads, exceptions), for the test to hold to none.
  problems: string[];
  // Another tab of the same browser, with a window of its own size.
  newPage(viewport: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

export async function openBrowser(viewport = DESKTOP): Promise<Browser> {
  const profile = await mkdtemp(path.join(tmpdir(), "console-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport });
  const problems: string[] = [];
  const watch = (page: Page) => {
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    return page;
  };
  const page = watch(context.pages()[0] ?? (await context.newPage()));
  return {
    context,
    page,
    problems,
    async newPage(size) {
      const added = watch(await context.newPage());
      await added.setViewportSize(size);
      return added;
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

// A screenshot of a page (the window, or the whole page), kept under test-artifacts/console/, and the number of
// distinct colours in it (counted by the browser itself from the PNG, on a blank page of its own): one colour is
// a blank page.
export async function screenshot(browser: Browser, name: string, options: { page?: Page; fullPage?: boolean } = {}): Promise<number> {
  const png = await (options.page ?? browser.page).screenshot({ fullPage: options.fullPage ?? true });
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
