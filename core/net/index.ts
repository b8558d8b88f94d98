// The guarded outbound HTTP client and its parts, for every feature that fetches or posts on a caller's behalf.
export { guardedRequest, type OutboundRequest, type OutboundResponse } from "./guarded-request.js";
export { urlRefusal, type OutboundPolicy, type ResolvedAddress, type Resolver } from "./destination.js";
export { classifyAddress, type AddressCategory } from "./ip-address.js";
export { OutboundError, type OutboundFailure } from "./outbound-error.js";
