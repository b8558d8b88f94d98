export * from "./tenants.js";
export * from "./credits.js";
export * from "./tasks.js";
export * from "./artifacts.js";
export * from "./voices.js";
export * from "./callbacks.js";
export * from "./rate-limits.js";
export * from "./inline-media.js";
