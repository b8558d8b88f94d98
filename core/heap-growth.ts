import { setFlagsFromString } from "node:v8";

// How far V8 lets a service process's heap grow past what survived its last full collection before collecting
// again: by half (V8 flag heap-growing-percent, read at every collection, so it applies when set at start).
// V8's own factor is up to 4 on a machine where the heap limit is above 1 GiB: under the benchmark's load a worker
// whose live data stays under 60 MB let its heap reach 200 MB (260 MB resident) before collecting; with this it
// peaks at about 160 MB resident, for more frequent but smaller collections (bench/RESULTS.md).
const HEAP_GROWING_PERCENT = 50;

export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
