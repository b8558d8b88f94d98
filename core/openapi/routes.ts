import { OPERATIONS } from "../operations/table.js";

// The documented routes as the request fuzz test walks them (method, path, an example body), from the operations
// table. Event streams are left out: on a task that never ends (no worker runs there) the answer never ends.
export const DOCUMENTED_ROUTES = OPERATIONS.filter(
  (operation) => !Object.values(operation.responses).some((response) => response.body && "mediaType" in response.body && response.body.mediaType === "text/event-stream"),
).map((operation) => ({
  method: operation.method,
  path: operation.path,
  area: operation.area,
  requestExample: operation.body?.example,
}));
