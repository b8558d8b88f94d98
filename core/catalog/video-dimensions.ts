// The frame size a video model produces for a resolution tier at an aspect ratio. The tier names the short
// side (9:16 at 720p is 720 wide); the long side follows the ratio, rounded to an even number because H.264
// in yuv420p needs even dimensions. The catalog, the adapters that send pixel sizes and the tests read this one
// table; the emulator keeps its own copy (emulator/media/video-frame.ts), so that what adapters send is checked.

const SHORT_SIDE: Readonly<Record<string, number>> = { "480p": 480, "720p": 720, "768p": 768, "1080p": 1080, "2k": 1440, "4k": 2160 };

export interface VideoDimensions {
  width: number;
  height: number;
}

export function videoDimensions(resolution: string, aspectRatio: string): VideoDimensions {
  const short = SHORT_SIDE[resolution];
  if (short === undefined) throw new Error(`unknown video resolution ${resolution}`);
  const match = /^(\d+):(\d+)$/.exec(aspectRatio);
  const across = Number(match?.[1]);
  const down = Number(match?.[2]);
  if (!match || across <= 0 || down <= 0) throw new Error(`unknown video aspect ratio ${aspectRatio}`);
  const long = 2 * Math.round((short * Math.max(across, down)) / Math.min(across, down) / 2);
  return across >= down ? { width: long, height: short } : { width: short, height: long };
}
