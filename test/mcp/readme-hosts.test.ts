import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient } from "./clients.js";
import { startMcpHarness, type McpHarness } from "./support.js";

// The README's HTTP host configurations (Claude Code, Cursor, VS Code, Codex), read from the README itself and
// used as those hosts use them: the URL and Authorization they give, with the v1 SDK client most hosts embed,
// after tools/list. Every tool name must pass the rule those hosts' model APIs apply.

const README = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
const README_ORIGIN = "http://127.0.0.1:8081";
const NAME_RULE = /^[a-zA-Z0-9_-]{1,64}$/;

interface HostConfig {
  host: string;
  url: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

function readmeHostConfigs(): HostConfig[] {
  const configs: HostConfig[] = [];
  const claude = README.match(/claude mcp add --transport http \S+ (\S+) --header "Authorization: Bearer \$SVC_API_KEY"/);
  if (claude) configs.push({ host: "Claude Code", url: claude[1] as string });
  for (const block of README.matchAll(/```json\n([\s\S]*?)```/g)) {
    const parsed = JSON.parse(block[1] as string) as Any;
    const servers = parsed.mcpServers ?? parsed.servers ?? {};
    for (const entry of Object.values(servers) as Any[]) {
      if (typeof entry.url !== "string") continue;
      const header = String(entry.headers?.Authorization ?? "");
      expect(header).toMatch(/^Bearer sk_us_…$/);
      configs.push({ host: parsed.servers ? "VS Code" : "Cursor", url: entry.url });
    }
  }
  // codex exec declines the calls it would ask about: the README's block approves this server's tools.
  const codex = README.match(/```toml\n\[mcp_servers\.[\w-]+\]\nurl = "([^"]+)"\nbearer_token_env_var = "SVC_API_KEY"\ndefault_tools_approval_mode = "approve"\n```/);
  if (codex) configs.push({ host: "Codex", url: codex[1] as string });
  return configs;
}

let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness();
});
afterAll(async () => m?.close());

describe("the README's HTTP host configurations", () => {
  it("name Claude Code, Cursor, VS Code and Codex", () => {
    expect(readmeHostConfigs().map((c) => c.host)).toEqual(["Claude Code", "Cursor", "VS Code", "Codex"]);
  });

  it("each connects, lists names every host accepts, and reads a tool error's code and param", async () => {
    const origin = new URL(m.url).origin;
    for (const config of readmeHostConfigs()) {
      expect(config.url.startsWith(README_ORIGIN), config.host).toBe(true);
      const client = await connectClient("v1 SDK client", config.url.replace(README_ORIGIN, origin), m.h.apiKey);
      try {
        const names = (await client.listTools()).tools.map((t) => t.name);
        for (const name of names) expect(name, `${config.host}: ${name}`).toMatch(NAME_RULE);
        const refused = await client.callTool("svc_tasks_list", { limit: 0 });
        expect(refused.structuredContent.error, config.host).toMatchObject({ code: "invalid_request", param: "/limit" });
      } finally {
        await client.close();
      }
    }
  }, 60_000);
});
