// The runtime's source of the current time, injectable so tests control time (core/runtime.ts).
export type Clock = () => Date;
