import { AppBridge, getToolUiResourceUri, PostMessageTransport, RESOURCE_MIME_TYPE, type McpUiResourceCsp } from "@modelcontextprotocol/ext-apps/app-bridge";
import { Client, StreamableHTTPClientTransport, type CallToolResult, type Tool } from "@modelcontextprotocol/client";

// A minimal MCP Apps host, built as the ext-apps basic host is: an MCP client connected to the service (through
// this page's own origin, as a web host's backend would), which calls a tool, reads the view its definition links,
// loads it into a sandbox proxy on another origin with the CSP the resource declares, and drives it with an
// AppBridge: tool input, tool result, the view's own tool calls, size, theme, model context and downloads.
// The test drives it through window.testHost and reads what happened from window.hostLog.

export interface ShowOptions {
  theme?: "light" | "dark";
  width?: number;
  // Replaces the resource's declared CSP, to see the sandbox refuse what the view did not declare.
  csp?: McpUiResourceCsp;
}

export interface HostLog {
  modelContext: unknown[];
  // The view's own tool calls, with the kinds of content each answer held.
  appToolCalls: { name: string; arguments: unknown; answered?: string[] }[];
  downloads: unknown[];
  sizes: number[];
}

const HOST_INFO = { name: "svc-test-host", version: "1.0.0" };
const hostLog: HostLog = { modelContext: [], appToolCalls: [], downloads: [], sizes: [] };
let connected: Promise<{ client: Client; tools: Map<string, Tool> }> | null = null;
let bridge: AppBridge | null = null;

function connect() {
  connected ??= (async () => {
    const client = new Client(HOST_INFO);
    // The page's ?mcp= names the endpoint (/mcp, or /mcp/underscore for a host whose model takes only those names).
    const endpoint = new URLSearchParams(location.search).get("mcp") ?? "/mcp";
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint, location.href)));
    const { tools } = await client.listTools();
    return { client, tools: new Map(tools.map((tool) => [tool.name, tool])) };
  })();
  return connected;
}

async function readView(client: Client, tool: Tool): Promise<{ html: string; csp: McpUiResourceCsp | undefined }> {
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${tool.name} links no view`);
  const [content] = (await client.readResource({ uri })).contents;
  if (!content || content.mimeType !== RESOURCE_MIME_TYPE || !("text" in content)) throw new Error(`${uri} is not an MCP App page`);
  const meta = content._meta as { ui?: { csp?: McpUiResourceCsp } } | undefined;
  return { html: content.text, csp: meta?.ui?.csp };
}

function loadSandbox(frame: HTMLIFrameElement, csp: McpUiResourceCsp | undefined): Promise<void> {
  return new Promise((resolve) => {
    const ready = (event: MessageEvent) => {
      if (event.source !== frame.contentWindow || (event.data as { method?: string })?.method !== "ui/notifications/sandbox-proxy-ready") return;
      window.removeEventListener("message", ready);
      resolve();
    };
    window.addEventListener("message", ready);
    // Another host name for the same server: another origin, as the specification requires of the sandbox.
    const sandbox = new URL("/sandbox.html", location.href);
    sandbox.hostname = "localhost";
    sandbox.searchParams.set("csp", JSON.stringify(csp ?? {}));
    frame.src = sandbox.href;
  });
}

async function show(name: string, args: Record<string, unknown>, options: ShowOptions = {}): Promise<CallToolResult> {
  const { client, tools } = await connect();
  const tool = tools.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const result = client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const view = await readView(client, tool);
  const csp = options.csp ?? view.csp;

  await bridge?.close();
  document.getElementById("view")?.remove();
  const frame = document.createElement("iframe");
  frame.id = "view";
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  frame.style.width = `${options.width ?? 560}px`;
  document.body.appendChild(frame);
  await loadSandbox(frame, csp);

  const theme = options.theme ?? "light";
  bridge = new AppBridge(
    client,
    HOST_INFO,
    { openLinks: {}, downloadFile: {}, serverTools: {}, serverResources: {}, updateModelContext: { text: {} } },
    { hostContext: { theme, displayMode: "inline", toolInfo: { tool }, containerDimensions: { width: options.width ?? 560, maxHeight: 4000 } } },
  );
  const initialized = new Promise<void>((resolve) => {
    (bridge as AppBridge).oninitialized = () => resolve();
  });
  bridge.onsizechange = ({ height }) => {
    if (height === undefined) return;
    hostLog.sizes.push(height);
    frame.style.height = `${height}px`;
  };
  bridge.onupdatemodelcontext = async (params) => {
    hostLog.modelContext.push(params);
    return {};
  };
  bridge.ondownloadfile = async (params) => {
    hostLog.downloads.push(params);
    return {};
  };
  bridge.onopenlink = async () => ({});
  const contentWindow = frame.contentWindow as Window;
  await bridge.connect(new PostMessageTransport(contentWindow, contentWindow));
  // connect() routes the view's tool calls to the client; each is recorded on its way.
  const forward = bridge.oncalltool as NonNullable<AppBridge["oncalltool"]>;
  bridge.oncalltool = async (params, extra) => {
    const call: HostLog["appToolCalls"][number] = { name: params.name, arguments: params.arguments };
    hostLog.appToolCalls.push(call);
    const answer = await forward(params, extra);
    call.answered = answer.content.map((content) => content.type);
    return answer;
  };
  await bridge.sendSandboxResourceReady({ html: view.html, csp });
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  const answered = await result;
  await bridge.sendToolResult(answered);
  return answered;
}

Object.assign(window, { testHost: { show }, hostLog });
