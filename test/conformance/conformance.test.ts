import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness } from "../mcp/support.js";
import { startFixtureServer, type FixtureServer } from "./fixture-server.js";
import { startKeyProxy } from "./key-proxy.js";
import { installSuite, runScenario, summarize, type Check, type Suite } from "./suite.js";

// The official MCP conformance suite (pinned in suite/), run by `npm run conformance` and by npm test: every tasks
// scenario against the fixture server built on our Tasks extension module, and the core server scenarios that
// apply to a server with our capabilities against the service itself, behind a proxy that adds the API key.

const TASKS_SCENARIOS = [
  "tasks-lifecycle",
  "tasks-capability-negotiation",
  "tasks-wire-fields",
  "tasks-request-state-removal",
  "tasks-mrtr-input",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-status-notifications",
  "tasks-required-task-error",
  "tasks-mrtr-composition",
];

// The core server scenarios of the suite that apply to the service: it declares tools, resources and the Tasks
// extension, serves 2026-07-28 statelessly beside 2025-11-25, and has no prompts, completions or logging.
const SERVICE_SCENARIOS = [
  "server-initialize",
  "ping",
  "server-stateless",
  "tools-list",
  "resources-list",
  "sep-2164-resource-not-found",
  "dns-rebinding-protection",
  "caching",
  "http-header-validation",
  "server-sse-multiple-streams",
  "server-sse-polling",
  "input-required-result-unsupported-methods",
  "input-required-result-ignore-extra-params",
];

// Checks of those scenarios that call what only the suite's own fixture server has, with why they cannot apply.
const NOT_APPLICABLE: Record<string, string> = {
  "sep-2575-server-rejects-undeclared-capability": "calls the suite's diagnostic tool test_missing_capability",
  "sep-2575-missing-capability-http-400": "calls the suite's diagnostic tool test_missing_capability",
  "sep-2575-http-server-no-independent-requests-on-stream": "calls the suite's diagnostic tool test_streaming_elicitation",
  "sep-2575-server-no-log-without-loglevel": "calls the suite's diagnostic tool test_logging_tool",
  "sep-2549-prompts-list-caching-hints": "reads prompts/list; the service declares no prompts",
};

// Scenarios of the 2026-07-28 set and the 2025-11-25 server list not run against the service, and why:
// tools-call-* (simple-text, image, audio, embedded-resource, mixed-content, error, with-progress, with-logging,
// sampling, elicitation), json-schema-2020-12, resources-read-text, resources-read-binary, resources-templates-read,
// elicitation-sep1034-defaults, elicitation-sep1330-enums and input-required-result-* but the two above call fixture
// tools or resources (test_simple_text, test://static-text, …) only the suite's reference server has;
// prompts-* and completion-complete need prompts and completions, logging-set-level logging, resources-subscribe
// and -unsubscribe subscriptions, none of which the service declares; http-custom-header-server-validation needs
// a tool with x-mcp-header annotations, which no tool of ours has; server-session-lifecycle is for stateful
// 2025 sessions, and the service is stateless; sep-2640-skills-* are the Skills extension, not declared.

const SUITE_INSTALL_MS = 300_000;
const failures = (checks: Check[]) =>
  checks.filter((c) => c.status === "FAILURE" && !(c.id in NOT_APPLICABLE)).map((c) => `${c.id}: ${c.errorMessage ?? ""}`);

let suite: Suite;
beforeAll(async () => {
  suite = await installSuite();
}, SUITE_INSTALL_MS);

describe("the conformance suite's tasks scenarios, against the fixture server", () => {
  let fixture: FixtureServer;
  const results = new Map<string, Check[]>();
  beforeAll(async () => {
    fixture = await startFixtureServer();
  });
  afterAll(async () => {
    console.log(summarize("the tasks fixture server", results));
    await fixture?.close();
  });

  for (const scenario of TASKS_SCENARIOS) {
    it(`passes ${scenario}`, async () => {
      const checks = await runScenario(suite, fixture.url, scenario);
      results.set(scenario, checks);
      expect(failures(checks)).toEqual([]);
    }, 180_000);
  }
});

describe("the conformance suite's core scenarios, against the service", () => {
  let m: McpHarness;
  let proxy: Awaited<ReturnType<typeof startKeyProxy>>;
  const results = new Map<string, Check[]>();
  beforeAll(async () => {
    m = await startMcpHarness();
    proxy = await startKeyProxy(m.url, m.h.apiKey);
  });
  afterAll(async () => {
    console.log(summarize("the service", results, NOT_APPLICABLE));
    await proxy?.close();
    await m?.close();
  });

  for (const scenario of SERVICE_SCENARIOS) {
    it(`passes ${scenario}`, async () => {
      const checks = await runScenario(suite, proxy.url, scenario);
      results.set(scenario, checks);
      expect(failures(checks)).toEqual([]);
      // SEP-1699's two SHOULDs are reported as warnings, not failures, when missing: held to success here.
      if (scenario === "server-sse-polling") {
        const status = (id: string) => checks.find((check) => check.id === id)?.status;
        expect([status("server-sse-priming-event"), status("server-sse-retry-field")]).toEqual(["SUCCESS", "SUCCESS"]);
      }
    }, 180_000);
  }
});
