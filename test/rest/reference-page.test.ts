import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { openBrowser } from "../console/browser.js";
import { startHarness, type Harness } from "../support/harness.js";

// The API reference at /v1/docs and the examples of /v1/openapi.json it is rendered from: every example the document
// carries (request bodies, parameters, answers, refusals, the callback event) validates against the schema it
// illustrates, and the page's own blocks (bodies, answers, curl calls) are those examples; its contents link to
// anchors the page has, every operation is there, it loads nothing from elsewhere, and its one script (search and
// copy buttons) is its own, allowed by hash.

interface Media {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { $ref?: string; value?: unknown }>;
}
interface Operation {
  operationId: string;
  parameters?: { name: string; schema: unknown; example?: unknown }[];
  requestBody?: { $ref?: string; content?: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
  components: { examples: Record<string, { value: unknown }>; requestBodies: Record<string, { content: Record<string, Media> }> };
}

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/reference");

let h: Harness;
let document: Document;
let ajv: Ajv2020;
const validators = new Map<string, ValidateFunction>();

beforeAll(async () => {
  h = await startHarness();
  document = (await h.request("GET", "/v1/openapi.json", { apiKey: null })).body;
  ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: "https://openapi.local/document", ...document });
});
afterAll(async () => h?.close());

// A JSON Pointer into the document as a URI fragment (each token escaped, then percent-encoded).
const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, "~0").replace(/\//g, "~1"))).join("/");

// The problems of a value against the schema at a JSON Pointer of the document (empty when it conforms).
function check(at: string, value: unknown): string[] {
  const ref = `https://openapi.local/document#/${at}`;
  let validate = validators.get(ref);
  if (!validate) validators.set(ref, (validate = ajv.compile({ $ref: ref })));
  return validate(value) ? [] : [`${decodeURIComponent(at)}: ${ajv.errorsText(validate.errors)}`];
}

function operations(): { path: string; method: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));
}

function examplesOf(media: Media): [string, unknown][] {
  const named = Object.entries(media.examples ?? {}).map(([name, example]): [string, unknown] => [
    name,
    example.$ref ? document.components.examples[example.$ref.split("/").pop()!]!.value : example.value,
  ]);
  return media.example === undefined ? named : [["example", media.example], ...named];
}

// Where an operation's request body schema is, in the document.
function requestSchemaPointer(operation: Operation): string | undefined {
  const body = operation.requestBody;
  if (!body) return undefined;
  if (body.$ref) return pointer("components", "requestBodies", body.$ref.split("/").pop()!, "content", "application/json", "schema");
  return undefined;
}

function responseSchemaPointer(path: string, method: string, status: string): string {
  return pointer("paths", path, method, "responses", status, "content", "application/json", "schema");
}

const unescapeHtml = (text: string) =>
  text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");

describe("the OpenAPI document's examples", () => {
  it("every request, parameter, answer, refusal and callback example validates against its schema", () => {
    const problems: string[] = [];
    let count = 0;
    for (const { path, method, operation } of operations()) {
      const body = requestSchemaPointer(operation);
      if (body) {
        const media = document.components.requestBodies[operation.requestBody!.$ref!.split("/").pop()!]!.content["application/json"]!;
        for (const [, value] of examplesOf(media)) {
          count++;
          problems.push(...check(body, value).map((p) => `${operation.operationId} body: ${p}`));
        }
      }
      for (const parameter of operation.parameters ?? []) {
        if (parameter.example === undefined) continue;
        const index = operation.parameters!.indexOf(parameter);
        count++;
        problems.push(...check(pointer("paths", path, method, "parameters", String(index), "schema"), parameter.example));
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = response.content?.["application/json"];
        if (!media?.schema) continue;
        const examples = examplesOf(media);
        const refusal = JSON.stringify(media.schema).includes("#/components/schemas/ErrorEnvelope");
        for (const [name, value] of examples) {
          count++;
          problems.push(...check(responseSchemaPointer(path, method, status), value).map((p) => `${operation.operationId} ${status} ${name}: ${p}`));
          // A refusal's example is of the code it is named by, at this status.
          if (refusal) expect((value as { error: { code: string } }).error.code).toBe(name);
        }
      }
    }
    for (const [name, webhook] of Object.entries(document.webhooks)) {
      const media = webhook.post!.requestBody!.content!["application/json"]!;
      for (const [, value] of examplesOf(media)) {
        count++;
        problems.push(...check(pointer("components", "schemas", "CallbackEvent"), value).map((p) => `${name}: ${p}`));
      }
    }
    expect(problems).toEqual([]);
    // Every JSON answer with a documented schema (a component, or a refusal's envelope) has an example; the
    // OpenAPI document itself is the one JSON answer described in words only.
    for (const { operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = response.content?.["application/json"];
        if (media?.schema && !("type" in (media.schema as object))) expect(examplesOf(media).length, `${operation.operationId} ${status}`).toBeGreaterThan(0);
      }
    }
    expect(count).toBeGreaterThan(300);
  });
});

describe("GET /v1/docs", () => {
  let html: string;
  let response: Response;
  beforeAll(async () => {
    response = await fetch(`${h.baseUrl}/v1/docs`);
    html = await response.text();
  });

  it("is one self-contained page under a policy that allows its own style and script only, and nothing from elsewhere", () => {
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    const hash = (text: string) => createHash("sha256").update(text).digest("base64");
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(1);
    expect(policy).toContain(`style-src 'sha256-${hash(styles[0]!)}'`);
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(policy).toContain(`script-src 'sha256-${hash(scripts[0]!)}'`);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<link|<img|<iframe|\ssrc=|\sstyle=|\son\w+=/i);
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href, href).toMatch(/^(#|\/(?!\/))/);
  });

  it("has landmarks, one h1, and a contents list whose every link lands on an anchor of the page", () => {
    expect(html).toMatch(/<html lang="en">/);
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    expect(html).toMatch(/<header>[\s\S]*<nav [^>]*aria-labelledby="contents"[\s\S]*<main id="main"/);
    expect(html).toContain('<a class="skip" href="#main">');
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!);
    expect(new Set(ids).size, "ids are unique").toBe(ids.length);
    const fragments = [...html.matchAll(/href="#([^"]+)"/g)].map((m) => unescapeHtml(m[1]!));
    expect(fragments.filter((fragment) => !ids.includes(fragment))).toEqual([]);
    const contents = /<nav [^>]*>([\s\S]*?)<\/nav>/.exec(html)![1]!;
    const listed = [...contents.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!);
    for (const section of ["authentication", "errors", "rate-limits", "callbacks", "tag-tasks", "tag-speech", "tag-assets", "tag-voices", "tag-credits", "tag-callbacks", "tag-catalog", "objects"]) {
      expect(listed).toContain(section);
    }
    for (const { operation } of operations()) {
      expect(ids, operation.operationId).toContain(operation.operationId);
      expect(listed, operation.operationId).toContain(operation.operationId);
    }
  });

  it("shows examples that parse and validate against the operation's schema, and curl calls that send them", () => {
    const problems: string[] = [];
    const byId = new Map(operations().map((entry) => [entry.operation.operationId, entry]));
    const blocks = [...html.matchAll(/<pre ([^>]*)><code>([\s\S]*?)<\/code><\/pre>/g)].map(([, attributes, code]) => ({
      attributes: Object.fromEntries([...attributes!.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!, unescapeHtml(m[2]!)])),
      code: unescapeHtml(code!),
    }));
    const shown = { request: 0, response: 0, curl: 0 };
    for (const { attributes, code } of blocks) {
      const kind = attributes["data-example"];
      const entry = byId.get(attributes["data-operation"] ?? attributes["data-curl"] ?? "");
      if (kind === "request" || kind === "response") {
        shown[kind]++;
        const value = JSON.parse(code);
        const at = kind === "request" ? requestSchemaPointer(entry!.operation)! : responseSchemaPointer(entry!.path, entry!.method, attributes["data-status"]!);
        problems.push(...check(at, value).map((p) => `${attributes["data-operation"]} ${kind}: ${p}`));
      } else if (kind === "webhook") {
        problems.push(...check(pointer("components", "schemas", "CallbackEvent"), JSON.parse(code)));
      } else if (kind === "error") {
        problems.push(...check(pointer("components", "schemas", "ErrorEnvelope"), JSON.parse(code)));
      } else if (attributes["data-curl"]) {
        shown.curl++;
        const { path, method, operation } = entry!;
        expect(code).toContain(path.split("{")[0]);
        if (method !== "get") expect(code, operation.operationId).toContain(`-X ${method.toUpperCase()}`);
        if (operation.parameters?.some((p) => p.name === "Idempotency-Key")) {
          expect(code).toContain("Idempotency-Key");
          expect(code).toContain("Prefer: wait=");
        }
        const sent = /-d '((?:[^']|'\\'')*)'/.exec(code)?.[1];
        if (sent !== undefined) problems.push(...check(requestSchemaPointer(operation)!, JSON.parse(sent.replace(/'\\''/g, "'"))));
      }
    }
    expect(problems).toEqual([]);
    expect(shown.curl).toBe(operations().length);
    // Each body the document exemplifies is shown, and at least one answer of every operation that answers JSON.
    expect(shown.request).toBe(operations().filter(({ operation }) => operation.requestBody).length);
    expect(shown.response).toBeGreaterThan(operations().length * 4);
  });

  it("shows a signature check that accepts a delivery signed as SPEC.md says and refuses a tampered or stale one", () => {
    const code = unescapeHtml(/<pre [^>]*data-signature-check="node"[^>]*><code>([\s\S]*?)<\/code><\/pre>/.exec(html)![1]!);
    const body = code.slice(code.indexOf("function signatureValid"));
    const signatureValid = new Function("createHmac", "timingSafeEqual", `${body}\nreturn signatureValid;`)(createHmac, timingSafeEqual) as (
      header: string | undefined,
      raw: string,
      secret: string,
    ) => boolean;
    const raw = JSON.stringify({ event_id: "evt_1", event_type: "task.succeeded" });
    const t = Math.floor(Date.now() / 1000);
    const sign = (secret: string, at: number, text = raw) => createHmac("sha256", secret).update(`${at}.${text}`).digest("hex");
    expect(signatureValid(`t=${t},v1=${sign("whsec_a", t)}`, raw, "whsec_a")).toBe(true);
    expect(signatureValid(`t=${t},v1=${sign("whsec_old", t)},v1=${sign("whsec_a", t)}`, raw, "whsec_a")).toBe(true);
    expect(signatureValid(`t=${t},v1=${sign("whsec_a", t)}`, `${raw} `, "whsec_a")).toBe(false);
    expect(signatureValid(`t=${t - 301},v1=${sign("whsec_a", t - 301)}`, raw, "whsec_a")).toBe(false);
    expect(signatureValid(undefined, raw, "whsec_a")).toBe(false);
  });
});

describe("GET /v1/docs in a browser", () => {
  it("applies its style and script under its own CSP, fits a 360 px window, is reachable by keyboard, searches and copies", async () => {
    const browser = await openBrowser();
    try {
      const { page } = browser;
      await page.setViewportSize({ width: 360, height: 780 });
      await page.goto(`${h.baseUrl}/v1/docs`);
      // (Page scripts are strings: the tests compile without DOM types.) The policy let the inline style sheet apply:
      // code blocks scroll instead of spilling out.
      expect(await page.evaluate('getComputedStyle(document.querySelector("pre")).overflowX')).toBe("auto");
      await page.evaluate('document.querySelectorAll("details").forEach((details) => { details.open = true; })');
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(360);
      await mkdir(ARTIFACTS, { recursive: true });
      await writeFile(path.join(ARTIFACTS, "narrow.png"), await page.screenshot());

      // The first Tab reaches the skip link; following it puts the focus in the reference.
      await page.keyboard.press("Tab");
      expect(await page.evaluate("document.activeElement?.className")).toBe("skip");
      await page.keyboard.press("Enter");
      expect(await page.evaluate("document.activeElement?.id")).toBe("main");

      // A contents link brings its operation into view.
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.locator('nav a[href="#createSpeech"]').click();
      const top = await page.evaluate<number>('document.getElementById("createSpeech").getBoundingClientRect().top');
      expect(top).toBeGreaterThanOrEqual(-1);
      expect(top).toBeLessThan(900);
      await writeFile(path.join(ARTIFACTS, "wide.png"), await page.screenshot());

      // The search narrows the contents to what matches, its words or the operation's summary, id and tool; Enter
      // goes to the first match.
      const visible = () => page.locator("nav .toc li:not([hidden]) > a code").allTextContents();
      await page.locator("#search").fill("cancel");
      expect(await page.locator("#search-count").textContent()).toMatch(/^\d+ match/);
      expect(await visible()).toEqual(expect.arrayContaining(["POST /v1/tasks/{task_id}/cancel"]));
      expect(await visible()).not.toContain("GET /v1/credits");
      await page.locator("#search").fill("svc.speech.synthesize");
      expect(await visible()).toEqual(["POST /v1/audio/speech"]);
      await page.locator("#search").press("Enter");
      await expect.poll(() => page.evaluate("location.hash")).toBe("#createSpeech");
      await page.locator("#search").fill("");
      expect((await visible()).length).toBeGreaterThan(40);

      // Every code block has a copy button, which copies the block as shown.
      await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: h.baseUrl });
      expect(await page.locator("button.copy").count()).toBe(await page.locator("pre").count());
      const curl = page.locator('pre[data-curl="createSpeech"]');
      await page.locator('.code:has(pre[data-curl="createSpeech"]) button.copy').click();
      await page.locator('.code:has(pre[data-curl="createSpeech"]) button.copy', { hasText: "Copied" }).waitFor();
      expect(await page.evaluate("navigator.clipboard.readText()")).toBe(await curl.textContent());
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.locator("#search").fill("speech");
      await writeFile(path.join(ARTIFACTS, "search.png"), await page.screenshot());
      // No CSP violation, failed load or script error was logged.
      expect(browser.problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
