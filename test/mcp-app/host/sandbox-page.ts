import type { McpUiSandboxResourceReadyNotification } from "@modelcontextprotocol/ext-apps/app-bridge";

// The sandbox proxy of an MCP Apps host (as the ext-apps basic host has it): a page on an origin other than the
// host's, served with the Content-Security-Policy the view's resource declared, which writes the view into an
// inner frame (inheriting that policy) and relays messages between the host and the view.

const hostOrigin = new URL(document.referrer).origin;
const inner = document.createElement("iframe");
inner.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
inner.style.cssText = "width: 100%; height: 100%; border: 0; display: block";
document.body.appendChild(inner);

window.addEventListener("message", (event: MessageEvent) => {
  if (event.source === window.parent && event.origin === hostOrigin) {
    const message = event.data as { method?: string; params?: McpUiSandboxResourceReadyNotification["params"] };
    if (message.method === "ui/notifications/sandbox-resource-ready" && message.params) {
      const doc = inner.contentDocument as Document;
      doc.open();
      doc.write(message.params.html);
      doc.close();
    } else inner.contentWindow?.postMessage(event.data, "*");
  } else if (event.source === inner.contentWindow) {
    window.parent.postMessage(event.data, hostOrigin);
  }
});

window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, hostOrigin);
