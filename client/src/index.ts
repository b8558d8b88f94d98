// @media-task-service/client: the media task service over HTTP, typed from its OpenAPI document.
export { createClient, MediaTaskClient, type ClientOptions, type CreateOptions, type Download } from "./client.js";
export { ServiceError, WaitTimeoutError, WebhookVerificationError, type WebhookFailure } from "./errors.js";
export { CAPABILITY_PATHS } from "./generated/capabilities.js";
export { OPERATION_ROUTES } from "./generated/operation-routes.js";
export type { JsonOperationId, OperationAnswer, OperationRequest } from "./operation-call.js";
export type { OperationId } from "./operation-route.js";
export type { components, operations, paths } from "./generated/openapi.js";
export { MAX_SERVER_WAIT_SECONDS, type TaskChange, type WaitOptions } from "./wait.js";
export { DEFAULT_TOLERANCE_SECONDS, verifyWebhook, type VerifyOptions, type WebhookHeaders } from "./webhooks.js";
export {
  isTerminal,
  TERMINAL_STATUSES,
  type Artifact,
  type CallbackEvent,
  type CapabilityId,
  type CreateBody,
  type CreatePath,
  type CreditBalance,
  type ErrorCode,
  type ErrorObject,
  type ListTasksQuery,
  type Quote,
  type QuoteBody,
  type Task,
  type TaskList,
  type TaskStatus,
} from "./types.js";
