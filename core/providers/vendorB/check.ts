import { bearer, taskRead, type FamilyCheck } from "../family-check.js";

// ModelArk: reading a task nobody created answers 404 ResourceNotFound to a valid key, 401 otherwise.
export const vendorBCheck: FamilyCheck = taskRead((id) => `/api/v3/contents/generations/tasks/${id}`, bearer);
