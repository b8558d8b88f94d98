import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps";

// The host's look: its light or dark theme, and the CSS variables it shares (colours, fonts, radii), which the
// style sheet reads with its own values as fallbacks. Fonts the host would load are left alone: the view loads
// nothing from elsewhere.
export function applyHostLook(context: McpUiHostContext): void {
  const root = document.documentElement;
  if (context.theme) root.dataset.theme = context.theme;
  for (const [name, value] of Object.entries(context.styles?.variables ?? {})) {
    if (typeof value === "string" && name.startsWith("--")) root.style.setProperty(name, value);
  }
}
