// The frame size the emulated video vendors render a resolution tier at a ratio in. The tier names the short side
// (9:16 at 720p is 720 wide); the long side follows the ratio, rounded to an even number because H.264 in yuv420p
// needs even dimensions. The emulator keeps its own copy of this rule, so a size an adapter sends is checked
// against it rather than derived from the same table.

const SHORT_SIDE: Readonly<Record<string, number>> = { "480p": 480, "720p": 720, "768p": 768, "1080p": 1080, "2k": 1440, "4k": 2160 };

export interface VideoFrame {
  width: number;
  height: number;
}

export function videoFrame(resolution: string, aspectRatio: string): VideoFrame {
  const short = SHORT_SIDE[resolution];
  if (short === undefined) throw new Error(`unknown video resolution ${resolution}`);
  const match = /^(\d+):(\d+)$/.exec(aspectRatio);
  const across = Number(match?.[1]);
  const down = Number(match?.[2]);
  if (!match || across <= 0 || down <= 0) throw new Error(`unknown video aspect ratio ${aspectRatio}`);
  const long = 2 * Math.round((short * Math.max(across, down)) / Math.min(across, down) / 2);
  return across >= down ? { width: long, height: short } : { width: short, height: long };
}
