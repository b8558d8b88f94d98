import { writeFile } from "node:fs/promises";
import path from "node:path";
import { renderModelsDoc } from "../core/published-catalog/models-doc.js";
import { PROJECT_ROOT } from "./local-env.js";

await writeFile(path.join(PROJECT_ROOT, "docs/models.md"), renderModelsDoc());
console.log("wrote docs/models.md");
