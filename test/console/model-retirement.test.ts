import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setModelRetirement } from "../../core/index.js";
import { startHarness, type Harness } from "../support/harness.js";
import { DESKTOP, openBrowser, screenshot, type Browser } from "./browser.js";

// The console's model card says what the catalog says of a model's retirement: a deprecated model wears a
// "deprecated" badge and says when it retires and what to use instead; a retired one cannot be chosen.
// Its screenshot is docs/console/model-retirement.png.

const HD = "vendorA-speech-2.8-hd";
const TURBO = "vendorA-speech-2.8-turbo";

let h: Harness;
let browser: Browser;
beforeAll(async () => {
  [h, browser] = await Promise.all([startHarness(), openBrowser(DESKTOP)]);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe("the console's model card", () => {
  it("shows a deprecated model's dates and replacement, and offers no retired model", async () => {
    const today = new Date();
    const deprecatedAt = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 1));
    const retiresAt = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 14));
    await setModelRetirement(h.core, { model: HD, deprecatedAt, retiresAt, replacement: TURBO });
    await setModelRetirement(h.core, { model: TURBO, retiresAt: new Date(today.getTime() - 3_600_000) });

    const page = browser.page;
    await page.goto(`${h.baseUrl}/`);
    await page.fill("#api-key", h.apiKey);
    await page.getByRole("button", { name: "Open the console" }).click();
    await page.goto(`${h.baseUrl}/#/try/text_to_speech`);
    await page.locator('form[aria-label="text_to_speech request"]').waitFor();
    const picker = page.locator('[id="field/model"]');
    await picker.locator(`option[value="${TURBO}"]`).waitFor({ state: "attached" });
    expect(await picker.locator(`option[value="${TURBO}"]`).isDisabled()).toBe(true);
    expect(await picker.locator(`option[value="${TURBO}"]`).textContent()).toContain("retired");
    expect(await picker.locator(`option[value="${HD}"]`).textContent()).toContain(`deprecated, retires ${retiresAt.toISOString().slice(0, 10)}`);

    await picker.selectOption(HD);
    const card = page.locator(`.model-card[data-model="${HD}"]`);
    await card.waitFor();
    expect(await card.locator(".badge").textContent()).toBe("deprecated");
    const note = (await card.locator(".retirement").textContent()) ?? "";
    expect(note).toContain(`Deprecated since ${deprecatedAt.toISOString().slice(0, 10)}`);
    expect(note).toContain(`retires on ${retiresAt.toISOString().slice(0, 10)}`);
    expect(note).toContain(`Use ${TURBO} instead`);
    await card.scrollIntoViewIfNeeded();
    expect(await screenshot(browser, "model-retirement", { fullPage: false })).toBeGreaterThan(1);
    expect(browser.problems.filter((text) => !text.startsWith("Failed to load resource: the server responded with a status of 4"))).toEqual([]);
  });
});
