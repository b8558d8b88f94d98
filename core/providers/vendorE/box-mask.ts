import { deflateSync } from "node:zlib";
import type { EditRegion } from "../../contracts/image-options.js";

// An edit region as Imagen takes a mask (docs/providers/vendorE.md): a greyscale PNG the size of the base image,
// white where the model may paint and black elsewhere. Each region becomes its own mask, so the vendor's answer
// can be checked region by region.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export function boxMaskPng(region: Pick<EditRegion, "x" | "y" | "width" | "height">, width: number, height: number): Buffer {
  const left = Math.round(region.x * width);
  const top = Math.round(region.y * height);
  const right = Math.min(width, Math.round((region.x + region.width) * width));
  const bottom = Math.min(height, Math.round((region.y + region.height) * height));
  // Each row starts with its filter byte (0: none).
  const rows = Buffer.alloc((width + 1) * height);
  for (let y = top; y < bottom; y++) rows.fill(255, y * (width + 1) + 1 + left, y * (width + 1) + 1 + right);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
