import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";

// The MCP clients hosts embed, behind one face so a test runs unchanged on each: the v1 SDK client (latest 1.x,
// what most hosts ship; it validates every result against the tool's output schema once it has listed tools) and
// the v2 client in both protocol revisions.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface TestClient {
  kind: ClientKind;
  listTools(): Promise<{ tools: Any[] }>;
  callTool(name: string, args: Record<string, unknown>, onprogress?: (p: Progress) => void): Promise<Any>;
  readResource(uri: string): Promise<Any>;
  instructions(): string | undefined;
  close(): Promise<void>;
}

export const CLIENT_KINDS = ["v1 SDK client", "v2 client 2025-11-25", "v2 client 2026-07-28"] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export async function connectClient(kind: ClientKind, url: string, credential: string): Promise<TestClient> {
  const headers = { authorization: `Bearer ${credential}` };
  if (kind === "v1 SDK client") {
    const client = new V1Client({ name: "host-v1", version: "1.0.0" });
    await client.connect(new V1Transport(new URL(url), { requestInit: { headers } }));
    return {
      kind,
      listTools: () => client.listTools(),
      callTool: (name, args, onprogress) =>
        client.callTool({ name, arguments: args }, CallToolResultSchema, { ...(onprogress ? { onprogress } : {}), timeout: 60_000 }),
      readResource: (uri) => client.readResource({ uri }),
      instructions: () => client.getInstructions(),
      close: () => client.close(),
    };
  }
  const protocol = kind === "v2 client 2025-11-25" ? "2025-11-25" : "2026-07-28";
  const client = new V2Client({ name: "host-v2", version: "1.0.0" }, protocol === "2025-11-25" ? {} : { versionNegotiation: { mode: { pin: protocol } } });
  await client.connect(new V2Transport(new URL(url), { requestInit: { headers } }));
  return {
    kind,
    listTools: () => client.listTools(),
    callTool: (name, args, onprogress) => client.callTool({ name, arguments: args }, { ...(onprogress ? { onprogress } : {}), timeout: 60_000 }),
    readResource: (uri) => client.readResource({ uri }),
    instructions: () => client.getInstructions(),
    close: () => client.close(),
  };
}
