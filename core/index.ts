// The one door through which servers and the worker reach the core.
export { loadConfig, ConfigError, providerEnvNames, MAX_REQUESTS_PER_WINDOW, VENDOR_FAMILIES, type Config, type SigningKey, type VendorFamily } from "./config.js";
export { checkVendor, describeCheck } from "./providers/vendor-checks.js";
export { createCore, type Core, type CoreOverrides } from "./runtime.js";
export { limitHeapGrowth } from "./heap-growth.js";
export { migrateDatabase } from "./db/migrate.js";
export { CLIENT_REQUEST_ID, identifierRandomBytes } from "./ids.js";
export { CAPABILITIES, findCapability } from "./capabilities/table.js";
export type { Capability } from "./capabilities/types.js";
export { authenticate, requireArea, type Principal } from "./auth/authenticate.js";
export { AREAS, isArea, type Area } from "./auth/areas.js";
export * as admin from "./auth/admin.js";
export { ServiceError, errorBody, ERROR_CATALOGUE, invalidRequest, failure, type ErrorCode } from "./errors/index.js";
export { createTask, type CreateContext } from "./tasks/create.js";
export { deprecationHeaders } from "./retirements/retirement.js";
export { setModelRetirement, type RetirementRequest } from "./retirements/set.js";
export { retirementDate, RETIREMENT_DATE_HELP } from "./retirements/dates.js";
export { quoteTask, type TaskQuote } from "./tasks/quote.js";
export { getTask, listTasksPage } from "./tasks/read.js";
export { cancelTask } from "./tasks/cancel.js";
export { isTerminal } from "./db/task-state-machine.js";
export { waitForTask, MAX_WAIT_SECONDS, type WaitOptions } from "./tasks/task-wait.js";
export { openTaskEventStream, parseLastEventId, type TaskStreamEvent } from "./tasks/task-event-stream.js";
export { findTaskByIdempotencyKey, isIdempotencyKeyLookup } from "./tasks/idempotency-lookup.js";
export { IDEMPOTENCY_KEY_LENGTH, IDEMPOTENCY_KEY_MAX_CHARS } from "./idempotency/key-bounds.js";
export { REQUEST_BODY_MAX_BYTES, REQUEST_BODY_MAX_MIB } from "./contracts/request-body.js";
export { executeTask } from "./tasks/execute.js";
export { parseExecuteJob } from "./tasks/execute-job.js";
export { pollTask } from "./tasks/poll.js";
export { sweepOverdueTasks } from "./tasks/sweep.js";
export { LIMIT_SCOPES, listRunningLimits, setRunningLimit, type LimitScope, type RunningLimitView } from "./tasks/running-limits.js";
export { MAX_RUNNING_RANGE, WEIGHT_RANGE } from "./db/schema/running-limits.js";
export { setTenantRetention } from "./artifacts/retention.js";
export { creditBalanceView } from "./credits/view.js";
export { setSpendLimit, tenantSpendLimits } from "./credits/spend-limits.js";
export { SPEND_PERIODS, type SpendPeriod, type SpendScope } from "./db/spend-states.js";
export { formatCredits, parseCredits } from "./credits/money.js";
export { openSignedArtifact } from "./artifacts/read.js";
export { listTaskAssets } from "./tasks/task-assets.js";
export { readTenantArtifact, type TenantArtifact } from "./artifacts/tenant-read.js";
export { imageThumbnail } from "./media/thumbnail.js";
export { listVoicesPage } from "./voices/list.js";
export { getVoice } from "./voices/get.js";
export { deleteVoice } from "./voices/delete.js";
export { findVoiceForTenant } from "./voices/lookup.js";
export { StockVoiceSamples } from "./voices/stock-sample.js";
export * as catalog from "./published-catalog/cards.js";
export { buildOpenApiDocument } from "./openapi/document.js";
export { renderReferencePage } from "./openapi/reference-page.js";
export { DOCUMENTED_ROUTES } from "./openapi/routes.js";
export { zodFailures } from "./errors/index.js";
export { uploadAsset, assetUploadSchema, type UploadedAsset } from "./assets/upload.js";
export { SCOPE_TABLE, SCOPES, isScope, scopeFor, missingScopes, type Scope } from "./oauth/scopes.js";
export { InsufficientScopeError } from "./oauth/insufficient-scope.js";
export { authenticateBearer, type Grant } from "./oauth/bearer.js";
export { createAccessTokenVerifier, type AccessTokenVerifier } from "./oauth/access-token.js";
export { generateSigningKey, publicJwks, mintDevAccessToken } from "./oauth/signing-key.js";
export {
  mcpResourceUrl,
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
  localIssuer,
  localJwksUrl,
} from "./oauth/resource-metadata.js";
export {
  createAuthorizationServer,
  AUTHORIZATION_SERVER_ROUTES,
  INTERACTION_PATH,
  type AuthorizationServerPages,
} from "./oauth/server/authorization-server.js";
export { signInWithApiKey, findKeyAccount, type KeyAccount } from "./oauth/server/key-accounts.js";
export { countFailedSignIn, signInThrottle, FAILED_SIGN_INS, FAILED_SIGN_INS_PER_ADDRESS, type SignInThrottle } from "./oauth/server/sign-in-attempts.js";
export { sweepOauthRecords } from "./oauth/server/sweep.js";
export { OAUTH_SWEEP_INTERVAL_MS, registrationRefusal } from "./oauth/server/registration-bounds.js";
export { requestSource } from "./oauth/server/request-source.js";
export * as oauthGrants from "./oauth/server/grants.js";
export { taskEnvelopeSchema } from "./contracts/envelope-schema.js";
export { videoOptionFields } from "./contracts/video-options.js";
export { deliverCallback } from "./callbacks/deliver.js";
export { redeliverCallback } from "./callbacks/redeliver.js";
export { createSigningKey, getSigningKey, listSigningKeysPage, retireSigningKey } from "./signing-keys/keys.js";
export { rotateSigningKey } from "./signing-keys/rotate.js";
export { createLogger, silentLogger, type Logger } from "./observability/logger.js";
export { createHttpMetrics, PROBE_PATHS, UNMATCHED_ROUTE, type HttpMetrics } from "./observability/http-metrics.js";
export { taskLogContext } from "./tasks/task-events.js";
export { checkReadiness, type CheckResult } from "./ops/readiness.js";
export { newWorkerId, startWorkerHeartbeat, type WorkerHeartbeat } from "./ops/worker-heartbeat.js";
export { closingIdleConnections, handleTermination, workerDrainMs } from "./ops/graceful-shutdown.js";
export { withinTime } from "./ops/time-limit.js";
export { enforceRateLimit } from "./rate-limits/limiter.js";
export { isValidBudget, type RateLimitSubject } from "./rate-limits/decision.js";
export { readTenantRateLimits, setTenantRateLimits, type TenantRateLimits } from "./rate-limits/tenant-limits.js";
export { startLostWorkerRecovery } from "./jobs/lost-workers.js";
export { isUnstorableText, refuseUnstorableText, UNSTORABLE_REASON } from "./contracts/storable-text.js";
export { JSON_MAX_DEPTH, JSON_MAX_ITEMS, JSON_MAX_KEY_LENGTH, refuseUnboundedJsonText } from "./contracts/json-shape.js";
export { MIRRORED_OPERATIONS, OPERATIONS, type OperationRow } from "./operations/table.js";
export { StatusAnswer, type GeneratedTool, type Operation, type ToolLimits } from "./operations/types.js";
export type { PathParameters } from "./operations/define.js";
