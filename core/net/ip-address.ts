import { isIPv4, isIPv6 } from "node:net";

// What an IP address is, for deciding whether the service may connect to it on a caller's behalf. Everything but
// "public" is refused by the guarded client (loopback only when the development switch allows it).
export type AddressCategory =
  | "public"
  | "private"
  | "loopback"
  | "link_local"
  | "cgnat"
  | "unique_local"
  | "multicast"
  | "unspecified"
  | "metadata"
  | "reserved"
  | "invalid";

interface Range {
  base: bigint;
  bits: number;
  category: AddressCategory;
}

// Cloud instance-metadata endpoints come first so they are named as such rather than as link-local.
const IPV4_RANGES: readonly [string, AddressCategory][] = [
  ["169.254.169.254/32", "metadata"],
  ["168.63.129.16/32", "metadata"],
  ["0.0.0.0/8", "unspecified"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "cgnat"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link_local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "reserved"],
  ["192.0.2.0/24", "reserved"],
  ["192.88.99.0/24", "reserved"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "reserved"],
  ["198.51.100.0/24", "reserved"],
  ["203.0.113.0/24", "reserved"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"],
];

const IPV6_RANGES: readonly [string, AddressCategory][] = [
  ["fd00:ec2::254/128", "metadata"],
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  // IPv4-compatible addresses (deprecated): never a legitimate destination.
  ["::/96", "reserved"],
  ["64:ff9b:1::/48", "private"],
  ["100::/64", "reserved"],
  ["2001::/32", "reserved"],
  ["2001:db8::/32", "reserved"],
  ["fc00::/7", "unique_local"],
  ["fe80::/10", "link_local"],
  ["fec0::/10", "private"],
  ["ff00::/8", "multicast"],
];

// IPv6 prefixes that carry an IPv4 address a packet may end up at: IPv4-mapped (::ffff:a.b.c.d), NAT64
// (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::). The embedded address decides.
const EMBEDDING_IPV4: readonly { prefix: string; shift: bigint }[] = [
  { prefix: "::ffff:0:0/96", shift: 0n },
  { prefix: "64:ff9b::/96", shift: 0n },
  { prefix: "2002::/16", shift: 80n },
];

function parseIpv4(text: string): bigint | null {
  if (!isIPv4(text)) return null;
  return text.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function parseIpv6(text: string): bigint | null {
  if (!isIPv6(text)) return null;
  let address = text;
  // A trailing dotted quad (::ffff:127.0.0.1) is two 16-bit groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const v4 = parseIpv4(dotted[1] as string);
    if (v4 === null) return null;
    address = `${address.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = address.includes("::") ? address.split("::") : [address, undefined];
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill("0"), ...tailGroups];
  if (groups.length !== 8) return null;
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function toRanges(table: readonly [string, AddressCategory][], parse: (text: string) => bigint | null): Range[] {
  return table.map(([cidr, category]) => {
    const [base, bits] = cidr.split("/") as [string, string];
    return { base: parse(base) as bigint, bits: Number(bits), category };
  });
}

const V4 = toRanges(IPV4_RANGES, parseIpv4);
const V6 = toRanges(IPV6_RANGES, parseIpv6);
const V6_EMBEDDING = EMBEDDING_IPV4.map((e) => ({ ...toRanges([[e.prefix, "public"]], parseIpv6)[0]!, shift: e.shift }));
const GLOBAL_UNICAST_V6 = toRanges([["2000::/3", "public"]], parseIpv6)[0]!;

function inRange(value: bigint, range: Range, width: number): boolean {
  const hostBits = BigInt(width - range.bits);
  return value >> hostBits === range.base >> hostBits;
}

function classifyIpv4(value: bigint): AddressCategory {
  return V4.find((range) => inRange(value, range, 32))?.category ?? "public";
}

// Accepts the text forms of IPv4 and IPv6 (with or without URL brackets); anything else is "invalid".
export function classifyAddress(text: string): AddressCategory {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const v4 = parseIpv4(bare);
  if (v4 !== null) return classifyIpv4(v4);
  const v6 = parseIpv6(bare);
  if (v6 === null) return "invalid";
  const named = V6.find((range) => inRange(v6, range, 128));
  if (named) return named.category;
  const embedding = V6_EMBEDDING.find((range) => inRange(v6, range, 128));
  if (embedding) return classifyIpv4((v6 >> embedding.shift) & 0xffffffffn);
  // Outside 2000::/3 nothing is allocated for the public Internet.
  return inRange(v6, GLOBAL_UNICAST_V6, 128) ? "public" : "reserved";
}
