import type { components } from "../client/src/generated/openapi.js";

// The API's answers as the console reads them: names for the client's types, which are generated from
// /v1/openapi.json (client/src/generated/), so the console and every other client read one description.
type Schemas = components["schemas"];

export type { Artifact, CreditBalance, ErrorObject, Quote, Task, TaskList, TaskStatus } from "../client/src/types.js";
export type CapabilityCard = Schemas["CapabilityCard"];
export type CapabilitySummary = Schemas["CapabilityList"]["data"][number];
export type ModelCard = Schemas["ModelCard"];
export type Voice = Schemas["Voice"];
export type VoiceList = Schemas["VoiceList"];
export type UploadedAsset = Schemas["UploadedAsset"];
export type SigningKey = Schemas["CallbackSigningKey"];
export type SigningKeyList = Schemas["CallbackSigningKeyList"];
export type LedgerEntry = Schemas["CreditBalance"]["entries"][number];
export type SpendLimit = Schemas["CreditBalance"]["spend_limits"][number];
