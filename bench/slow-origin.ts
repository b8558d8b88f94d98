import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { runFfmpeg } from "../core/media/ffmpeg.js";

// A media host whose downloads each take about `downloadMs`: a real small PNG sent in pieces spread over that
// time, so an image-understanding task holds a worker for as long while it fetches its input, and then succeeds.
// The pieces come well within the service's first-byte limit, and a download this short never spans one window
// of its minimum-rate check, so the pace does not cut it off.

export interface SlowOrigin {
  imageUrl: string;
  downloads(): number;
  close(): Promise<void>;
}

const PIECES = 10;

export async function startSlowOrigin(downloadMs: number): Promise<SlowOrigin> {
  const png = await runFfmpeg(["-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1", "-f", "image2", "-c:v", "png", "pipe:1"]);
  const pieceBytes = Math.ceil(png.length / PIECES);
  const open = new Set<ServerResponse>();
  let downloads = 0;
  const server = createServer((_request, response) => {
    downloads++;
    open.add(response);
    response.on("close", () => open.delete(response));
    response.writeHead(200, { "content-type": "image/png", "content-length": String(png.length) });
    let sent = 0;
    const sendPiece = () => {
      if (response.destroyed) return;
      const piece = png.subarray(sent, sent + pieceBytes);
      sent += piece.length;
      if (sent >= png.length) return void response.end(piece);
      response.write(piece);
      setTimeout(sendPiece, downloadMs / (PIECES - 1));
    };
    sendPiece();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    imageUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/photo.png`,
    downloads: () => downloads,
    close: () =>
      new Promise((resolve) => {
        for (const response of open) response.destroy();
        server.close(() => resolve());
      }),
  };
}
