import { startEmulator } from "./server.js";

const DEFAULT_PORT = 4010;

const port = Number(process.env.EMULATOR_PORT ?? DEFAULT_PORT);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  throw new Error(`EMULATOR_PORT must be a port number, got ${process.env.EMULATOR_PORT}`);
}

const emulator = await startEmulator({ host: process.env.EMULATOR_HOST ?? "127.0.0.1", port });
console.log(`vendor emulator listening on ${emulator.url}`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void emulator.close().then(() => process.exit(0));
  });
}
