import { ACCOUNT_OPERATIONS } from "./rows/account.js";
import { CALLBACK_OPERATIONS } from "./rows/callbacks.js";
import { CATALOG_OPERATIONS } from "./rows/catalog.js";
import { SERVICE_OPERATIONS } from "./rows/service.js";
import { TASK_OPERATIONS } from "./rows/tasks.js";
import type { Operation } from "./types.js";

export { MIRRORED_OPERATIONS } from "./rows/mirrored.js";
export { preferWaitHeaders } from "./rows/shared.js";

// Every route of the REST server besides the task-creating ones (those come from the capability table), once:
// the REST server registers each from here (rest-server/routes/operation-routes.ts: the operations with a use case
// through one handler, the others through handlers keyed by their ids), the OpenAPI document describes all of
// them, MCP's tools take their names and arguments from the rows they mirror, and the client's calls are typed by
// their ids. test/rest/operations-table.test.ts holds this table to the routes the REST server really serves.
// The rows are written by area in core/operations/rows/.
const TABLE = [...TASK_OPERATIONS, ...ACCOUNT_OPERATIONS, ...CALLBACK_OPERATIONS, ...CATALOG_OPERATIONS, ...SERVICE_OPERATIONS] as const;

export const OPERATIONS: readonly Operation[] = TABLE;

// One row of the table as written, its operationId a literal.
export type OperationRow = (typeof TABLE)[number];

