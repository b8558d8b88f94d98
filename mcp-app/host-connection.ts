import type {
  McpUiDownloadFileRequest,
  McpUiHostCapabilities,
  McpUiHostContext,
  McpUiInitializeRequest,
  McpUiInitializeResult,
  McpUiToolResultNotification,
  McpUiUpdateModelContextRequest,
} from "@modelcontextprotocol/ext-apps";

// The view's side of MCP Apps (SEP-1865, 2026-01-26): JSON-RPC 2.0 over postMessage with the host window. Written
// here in a page of code, typed by the SDK's own declarations, instead of bundling the SDK's App class: that
// brings the MCP client and zod with every locale (664 KB minified) into a page that needs a dozen messages.

const PROTOCOL_VERSION: McpUiInitializeRequest["params"]["protocolVersion"] = "2026-01-26";
const APP_INFO = { name: "media-task-service-task-view", version: "1.0.0" };

export type ToolResult = McpUiToolResultNotification["params"];

interface Message {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

export interface HostEvents {
  toolInput(args: Record<string, unknown>): void;
  toolResult(result: ToolResult): void;
  toolCancelled(reason: string | undefined): void;
  contextChanged(context: McpUiHostContext): void;
  teardown(): void;
}

export interface HostConnection {
  capabilities: McpUiHostCapabilities;
  context: McpUiHostContext;
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  updateModelContext(text: string): Promise<void>;
  // Hands a download to the host (the sandbox may forbid the page's own); false when the host offers neither
  // downloads nor opening links, so the plain link should do.
  download(file: { url: string; name: string; mimeType: string }): Promise<boolean>;
}

export async function connectToHost(events: HostEvents): Promise<HostConnection> {
  const host = window.parent;
  const pending = new Map<number | string, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  const send = (message: Omit<Message, "jsonrpc">) => host.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const request = <T>(method: string, params: object): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      send({ id, method, params: params as Record<string, unknown> });
    });

  const notified = (method: string, params: Record<string, unknown>) => {
    if (method === "ui/notifications/tool-input") events.toolInput((params.arguments as Record<string, unknown> | undefined) ?? {});
    else if (method === "ui/notifications/tool-result") events.toolResult(params as ToolResult);
    else if (method === "ui/notifications/tool-cancelled") events.toolCancelled(params.reason as string | undefined);
    else if (method === "ui/notifications/host-context-changed") events.contextChanged(params as McpUiHostContext);
  };
  const answer = (id: number | string, method: string) => {
    if (method === "ui/resource-teardown") {
      events.teardown();
      send({ id, result: {} });
    } else if (method === "ping") send({ id, result: {} });
    else send({ id, error: { code: -32601, message: `The task view does not handle ${method}` } });
  };
  window.addEventListener("message", (event) => {
    // Only the host speaks to the view; anything else posting to this window is ignored.
    if (event.source !== host) return;
    const message = event.data as Message | null;
    if (message?.jsonrpc !== "2.0") return;
    if (message.method === undefined) {
      const waiter = message.id === undefined ? undefined : pending.get(message.id);
      if (!waiter || message.id === undefined) return;
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    } else if (message.id !== undefined) answer(message.id, message.method);
    else notified(message.method, message.params ?? {});
  });

  const initialized = await request<McpUiInitializeResult>("ui/initialize", { appInfo: APP_INFO, appCapabilities: {}, protocolVersion: PROTOCOL_VERSION });
  send({ method: "ui/notifications/initialized" });
  reportHeight((height) => send({ method: "ui/notifications/size-changed", params: { height } }));

  const capabilities = initialized.hostCapabilities;
  return {
    capabilities,
    context: initialized.hostContext,
    callTool: (name, args) => request<ToolResult>("tools/call", { name, arguments: args }),
    async updateModelContext(text) {
      const params: McpUiUpdateModelContextRequest["params"] = { content: [{ type: "text", text }] };
      await request("ui/update-model-context", params);
    },
    async download({ url, name, mimeType }) {
      if (capabilities.downloadFile) {
        const params: McpUiDownloadFileRequest["params"] = { contents: [{ type: "resource_link", uri: url, name, mimeType }] };
        await request("ui/download-file", params);
        return true;
      }
      if (capabilities.openLinks) {
        await request("ui/open-link", { url });
        return true;
      }
      return false;
    },
  };
}

// The host sizes the frame to the page: its height whenever it changes. The width is the host's (the page flows
// into any column), so none is asked for.
function reportHeight(report: (height: number) => void): void {
  let last = -1;
  const measure = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    report(height);
  };
  new ResizeObserver(measure).observe(document.body);
  measure();
}
