import { resolveDestination } from "../../net/destination.js";
import { classifyAddress } from "../../net/ip-address.js";

// How the authorization server fetches client ID metadata documents under the development switch
// (OUTBOUND_ALLOW_LOOPBACK_HTTP), which lets callbacks and media inputs reach this machine: a document on a
// loopback address is fetched too. oidc-provider hands every fetch a dispatcher of its own that refuses all
// special-use addresses, loopback included; a loopback destination goes without it, anything else keeps it.
// Private and the other special-use addresses stay refused, and a client id is an HTTPS URL either way.
export async function fetchAllowingLoopback(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  const { address } = await resolveDestination(url, { allowLoopbackHttp: true });
  if (classifyAddress(address) !== "loopback") return fetch(input, init);
  const { dispatcher: _specialUseGuard, ...loopbackInit } = init;
  return fetch(input, loopbackInit);
}
