import { taskRead, type FamilyCheck } from "../family-check.js";

// The image task API: a status read of a task nobody created, with the vendor's `Key` authorization.
export const vendorFCheck: FamilyCheck = taskRead((id) => `/v2/image-tasks/${id}`, (apiKey) => ({ authorization: `Key ${apiKey}` }));
