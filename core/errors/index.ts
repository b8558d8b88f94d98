export * from "./catalogue.js";
export * from "./service-error.js";
export * from "./json-pointer.js";
export * from "./validation.js";
