import { startFixtureServer } from "./fixture-server.js";

// The fixture server on its own, for running the conformance suite by hand: PORT (default any free one).
const server = await startFixtureServer(Number(process.env.PORT ?? 0));
console.log(server.url);
process.once("SIGTERM", () => void server.close().then(() => process.exit(0)));
