import { randomUUID } from "node:crypto";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { claudeCode, installClaudeCode, type ClaudeCode } from "../oauth/claude-code.js";
import { startModelStandIn, type MessagesRequest, type ModelStandIn } from "../oauth/model-stand-in.js";
import { eventually } from "../support/wait.js";
import { startRecordingProxy, type RecordingProxy } from "./recording-proxy.js";
import { startMcpHarness, type McpHarness } from "./support.js";

// Claude Code (latest from npm) as a person runs it: the server added with its API key header as the README says,
// then an interactive session whose model (a stand-in on loopback) asks for a 10-second video once. Claude Code
// declares the Tasks extension on that call, our create answers a task, Claude Code moves the call to the
// background and follows it with tasks/get, and when the video is done it tells the model in a later request.
//
// Read from its bundle (2.1.332): it declares the extension in every request's clientCapabilities (2026-07-28
// `_meta`) when its v2 MCP runtime is on and the session's entrypoint is "cli", the default of a feature flag
// (CLAUDE_CODE_DISABLE_MCP_TASKS turns it off). `claude -p` runs as "sdk-cli" and calls tools in the foreground,
// so the session here is an interactive one in a terminal (script(1)), as a person's is; the result comes to the
// model as a <task-notification> in a request of its own.

vi.setConfig({ testTimeout: 180_000 });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const SERVER_NAME = "media-tasks";
const CREATE_TOOL = `mcp__${SERVER_NAME}__svc_videos_generate`;
const MODEL_KEY = "stand-in-model-key-for-claude-code";
const createArguments = { client_request_id: randomUUID(), prompt: "A paper boat drifting down a rainy street.", duration: 10 };

let m: McpHarness;
let proxy: RecordingProxy;
let claude: ClaudeCode;
let model: ModelStandIn;

beforeAll(async () => {
  // The first time on a machine this fetches the package from npm, later nothing.
  const binary = installClaudeCode();
  [m, claude, model] = await Promise.all([
    startMcpHarness(),
    claudeCode(binary),
    startModelStandIn({ matches: (name) => name === CREATE_TOOL, input: createArguments }),
  ]);
  // The README's endpoint for Claude Code, behind a proxy that keeps what Claude Code sends.
  proxy = await startRecordingProxy(`${m.url}/underscore`);
}, 180_000);
afterAll(async () => {
  await proxy?.close();
  await model?.close();
  await m?.close();
  if (claude) await rm(claude.home, { recursive: true, force: true });
});

// What the model read in one request: every text of its messages, tool results' texts included.
function textOf(request: MessagesRequest): string {
  const texts = (content: unknown): string[] =>
    typeof content === "string"
      ? [content]
      : Array.isArray(content)
        ? content.flatMap((block: Any) => [...(typeof block.text === "string" ? [block.text] : []), ...texts(block.content)])
        : [];
  return (request.messages ?? []).flatMap((turn) => texts(turn.content)).join("\n");
}

function toolUses(request: MessagesRequest): number {
  return (request.messages ?? [])
    .filter((turn) => turn.role === "assistant" && typeof turn.content !== "string")
    .flatMap((turn) => turn.content as { type: string }[])
    .filter((block) => block.type === "tool_use").length;
}

// A person who has used Claude Code before: onboarding done, this folder trusted, the key in the environment approved.
async function seedPersonConfig(home: string): Promise<void> {
  const file = path.join(home, ".claude.json");
  const config = JSON.parse(await readFile(file, "utf8")) as Any;
  config.hasCompletedOnboarding = true;
  config.theme = "dark";
  config.customApiKeyResponses = { approved: [MODEL_KEY.slice(-20)], rejected: [] };
  config.projects[home] = { ...config.projects[home], hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true };
  await writeFile(file, JSON.stringify(config, null, 2));
}

describe("Claude Code with the Tasks extension", () => {
  it("moves a video create to the background, follows it with tasks/get and hands its result to the model, one call", async () => {
    const added = await claude.run(["mcp", "add", "--transport", "http", SERVER_NAME, proxy.url, "--header", `Authorization: Bearer ${m.h.apiKey}`]);
    expect(added.code, added.output).toBe(0);
    await seedPersonConfig(claude.home);

    const session = claude.runInTerminal(["--allowedTools", CREATE_TOOL], {
      ANTHROPIC_BASE_URL: model.baseUrl,
      ANTHROPIC_API_KEY: MODEL_KEY,
      ENABLE_TOOL_SEARCH: "false",
    });
    const screen = () => session.output().slice(-2000);
    try {
      // The person types the prompt once the session has listed the server's tools (a prompt sent before that
      // reaches a model offered no tool of ours).
      await eventually(() => `Claude Code to list the tools\n${screen()}`, 60_000, () => proxy.messages.find((message) => message.method === "tools/list"));
      await new Promise((resolve) => setTimeout(resolve, 2000));
      session.child.stdin?.write("Make a ten-second video of a paper boat.");
      await new Promise((resolve) => setTimeout(resolve, 500));
      session.child.stdin?.write("\r");

      const calls = () => proxy.messages.filter((message) => message.method === "tools/call");
      const call = await eventually(() => `Claude Code to call the create tool\n${screen()}`, 60_000, () => calls()[0]);
      expect(call.headers["mcp-protocol-version"]).toBe("2026-07-28");
      const meta = call.params?._meta as Any;
      expect(meta["io.modelcontextprotocol/clientCapabilities"].extensions["io.modelcontextprotocol/tasks"]).toEqual({});

      // The tool's first answer to the model: the call moved to the background with our task id.
      const handedOff = await eventually(() => `the tool's first answer\n${screen()}`, 30_000, () =>
        model.requests.map(textOf).find((text) => text.includes("moved to the background")),
      );
      const taskId = /started server-side task (task_[0-9a-z]+)/.exec(handedOff)?.[1] as string;
      expect(taskId).toBeTruthy();

      // Later, a request of its own tells the model the task ended and carries the final result.
      const delivered = await eventually(() => `the video's result to reach the model\n${screen()}`, 120_000, () =>
        model.requests.find((request) => textOf(request).includes("<task-notification>") && textOf(request).includes(`"task_id":"${taskId}"`)),
      );
      const notification = textOf(delivered);
      expect(notification).toContain("<status>completed</status>");
      expect(notification).toContain(`"status":"succeeded"`);
      expect(notification).toContain("video/mp4");

      const polls = proxy.messages.filter((message) => message.method === "tasks/get" && message.params?.taskId === taskId);
      expect(polls.length).toBeGreaterThan(0);
      expect(calls()).toHaveLength(1);
      expect(toolUses(delivered)).toBe(1);
      const task = (await (await fetch(`${m.h.baseUrl}/v1/tasks/${taskId}`, { headers: { authorization: `Bearer ${m.h.apiKey}` } })).json()) as Any;
      expect(task).toMatchObject({ status: "succeeded", capability: "text_to_video", input: { duration: 10 } });
    } finally {
      session.child.kill("SIGTERM");
      await session.exited;
    }
  });
});
