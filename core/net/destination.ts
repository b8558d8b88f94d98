import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { classifyAddress, type AddressCategory } from "./ip-address.js";
import { OutboundError } from "./outbound-error.js";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundPolicy {
  // Local development and tests only: loopback addresses and plain http:// become reachable. Private, link-local,
  // metadata and the other special ranges stay refused either way.
  allowLoopbackHttp: boolean;
  // Name resolution; the system resolver (getaddrinfo, so /etc/hosts counts) unless a caller supplies one.
  resolve?: Resolver;
}

const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function addressAllowed(category: AddressCategory, policy: OutboundPolicy): boolean {
  return category === "public" || (category === "loopback" && policy.allowLoopbackHttp);
}

// URL hosts keep IPv6 literals in brackets; sockets and DNS want them bare.
export function bareHostname(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

// The development switch lets plain http reach this machine only: an address literal must be loopback, and a
// name must resolve to loopback addresses only (resolveDestination).
const PLAIN_HTTP_RULE = "must be an HTTPS URL (plain http reaches loopback addresses only)";

// What is wrong with a destination before any name is resolved, as prose for the caller; null when nothing is.
// IP literals are judged here already, so a caller learns at once that https://10.0.0.1/ will never be reached.
export function urlRefusal(text: string, policy: OutboundPolicy): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowLoopbackHttp)) return "must be an HTTPS URL";
  if (url.username !== "" || url.password !== "") return "must not carry user credentials";
  const host = bareHostname(url);
  if (isIP(host) !== 0) {
    const category = classifyAddress(host);
    if (!addressAllowed(category, policy)) return `must not point at a ${category.replace("_", "-")} address (${host})`;
    if (url.protocol === "http:" && category !== "loopback") return PLAIN_HTTP_RULE;
  }
  return null;
}

export function checkUrl(text: string, policy: OutboundPolicy): URL {
  const refusal = urlRefusal(text, policy);
  if (refusal) throw new OutboundError("refused", `${text} ${refusal}`);
  return new URL(text);
}

// Resolves the host and checks every address it resolves to, so a name with one public and one private address
// is refused rather than sometimes reaching the private one. The caller connects to the address returned, so the
// name is never resolved a second time (no DNS rebinding between the check and the connection). A refusal names
// the rule, never the address: what a name resolves to is the service's view of DNS (internal names included),
// which a caller must not be able to read through it.
export async function resolveDestination(url: URL, policy: OutboundPolicy): Promise<ResolvedAddress> {
  const host = bareHostname(url);
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolver)(host);
    } catch (error) {
      throw new OutboundError("dns_failed", `${host} did not resolve: ${(error as Error).message}`);
    }
  }
  if (addresses.length === 0) throw new OutboundError("dns_failed", `${host} resolved to no address`);
  for (const { address } of addresses) {
    if (!addressAllowed(classifyAddress(address), policy)) {
      throw new OutboundError("refused", `${host} resolves to a private, loopback or other non-public address`);
    }
  }
  if (url.protocol === "http:" && addresses.some(({ address }) => classifyAddress(address) !== "loopback")) {
    throw new OutboundError("refused", `http://${host} ${PLAIN_HTTP_RULE}`);
  }
  // IPv4 first: a host's IPv6 address is the one more often unreachable from a server.
  return [...addresses].sort((a, b) => a.family - b.family)[0] as ResolvedAddress;
}
