// Credits are integer micro-credits (bigint) everywhere in code and storage; on the wire they are fixed-point
// decimal strings with six fractional digits. A JS number never holds money.
export const MICRO_PER_CREDIT = 1_000_000n;

export function formatCredits(micro: bigint): string {
  const negative = micro < 0n;
  const abs = negative ? -micro : micro;
  const whole = abs / MICRO_PER_CREDIT;
  const fraction = (abs % MICRO_PER_CREDIT).toString().padStart(6, "0");
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

export function parseCredits(text: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) throw new Error(`not a credit amount: ${text}`);
  const whole = BigInt(match[1] ?? "0");
  const fraction = BigInt((match[2] ?? "").padEnd(6, "0"));
  return whole * MICRO_PER_CREDIT + fraction;
}

export function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator;
}
