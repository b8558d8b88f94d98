import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

// The sign-in and consent pages wear the web console's own style sheet (console/console.css), inlined so that a
// page needs nothing from another origin: the MCP server and the console are served apart. Its source in a
// checkout, else the copy `npm run build` put in dist/console; found from the package.json above this module,
// whether it runs as source or from dist/.
function consoleStyleSheet(): string {
  for (let dir = import.meta.dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (!existsSync(path.join(dir, "package.json"))) continue;
    for (const file of [path.join(dir, "console", "console.css"), path.join(dir, "dist", "console", "console.css")]) {
      if (existsSync(file)) return readFileSync(file, "utf8");
    }
    break;
  }
  throw new Error("console/console.css not found: the authorization pages take their look from it");
}

// What the pages add to the console's sheet: a narrow centred column and the list of permissions.
const PAGE_RULES = `
main.authorize { max-width: 36rem; }
.permissions { list-style: none; padding: 0; margin: 0 0 1rem; }
.permissions li { margin: 0 0 0.5rem; }
.permissions label { font-weight: 400; }
ul.unavailable { color: var(--muted); margin-top: 0.25rem; }
.destination { background: var(--panel); border-radius: 6px; padding: 0.5rem 1rem; }
`;

export interface PageStyle {
  css: string;
  // The Content-Security-Policy source that allows exactly this inline style.
  cspSource: string;
}

export function loadPageStyle(): PageStyle {
  const css = `${consoleStyleSheet()}\n${PAGE_RULES}`;
  return { css, cspSource: `'sha256-${createHash("sha256").update(css).digest("base64")}'` };
}
