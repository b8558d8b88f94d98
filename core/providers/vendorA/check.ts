import { bearer, MADE_UP_TASK_ID, record, refusedKey, type FamilyCheck } from "../family-check.js";

// MiniMax-style: Video Generation V2's task query (the video call the adapter makes) with a made-up id; every
// answer carries base_resp, 1004 for a bad key.
export const vendorACheck: FamilyCheck = {
  call: () => ({ method: "GET", path: `/v2/query/video_generation/${MADE_UP_TASK_ID}` }),
  headers: bearer,
  verdict: ({ status }, body) => {
    const code = record(record(body).base_resp).status_code;
    if (refusedKey(status) || code === 1004) return "not_authenticated";
    return status === 200 && typeof code === "number" ? "authenticated" : "unexpected";
  },
};
