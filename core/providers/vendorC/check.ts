import { bearer, taskRead, type FamilyCheck } from "../family-check.js";

// DashScope: a task id it does not know reads as task_status UNKNOWN (200) for a valid key, 401 InvalidApiKey otherwise.
export const vendorCCheck: FamilyCheck = taskRead((id) => `/api/v1/tasks/${id}`, bearer);
