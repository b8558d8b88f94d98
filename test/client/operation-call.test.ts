import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, ServiceError, type MediaTaskClient } from "../../client/src/index.js";
import { startHarness, type Harness } from "../support/harness.js";

// Every operation that answers JSON is reachable through the client by its id, typed from the service's
// document: a new row of the operations table needs no hand-written client method.
let h: Harness;
let client: MediaTaskClient;
beforeAll(async () => {
  h = await startHarness({ credits: "10" });
  client = createClient({ baseUrl: h.baseUrl, apiKey: h.apiKey });
});
afterAll(async () => h?.close());

describe("client.call", () => {
  it("reads a page of voices, then one voice, typed as the document says", async () => {
    const page = await client.call("listVoices", { query: { limit: 2 } });
    expect(page.data).toHaveLength(2);
    const voice = await client.call("getVoice", { path: { voice_id: page.data[0]!.voice_id } });
    expect(voice.voice_id).toBe(page.data[0]!.voice_id);
  });

  it("writes with a body and answers the write's status body", async () => {
    const key = await client.call("createCallbackSigningKey", { body: { name: "called by id" } });
    expect(key).toMatchObject({ name: "called by id", status: "active" });
    const retired = await client.call("retireCallbackSigningKey", { path: { key_id: key.id } });
    expect(retired.id).toBe(key.id);
  });

  it("throws the service's refusal as a ServiceError", async () => {
    const refusal = await client.call("getCatalogModel", { path: { model: "no-such-model" } }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ServiceError);
    expect((refusal as ServiceError).code).toBe("not_found");
  });

  // Checked by the type check (npm run typecheck), never run.
  it("does not compile a call the document does not have", () => {
    const refused = [
      // @ts-expect-error a path parameter is required
      (c: MediaTaskClient) => c.call("getVoice"),
      // @ts-expect-error no such operation
      (c: MediaTaskClient) => c.call("getVoices"),
      // @ts-expect-error the event stream does not answer JSON
      (c: MediaTaskClient) => c.call("streamTaskEvents", { path: { task_id: "task_x" } }),
    ];
    expect(refused).toHaveLength(3);
  });
});
