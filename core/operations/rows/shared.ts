import { z } from "zod";
import { documentedSigningKeySchema } from "../callback-schemas.js";
import { documentedTaskListSchema, documentedTaskSchema } from "../task-envelope.js";

// Parts several rows share: path parameters, the task answers, the Prefer header.
export const taskId = z.object({ task_id: z.string().describe("The task's id (task_…).") });
export const voiceId = z.object({ voice_id: z.string().describe("A preset voice's id or a cloned voice's voice_… id.") });
export const keyId = z.object({ key_id: z.string().describe("The signing key's id (csk_…).") });
export const task = { schema: documentedTaskSchema, component: "TaskEnvelope" };
export const taskList = { schema: documentedTaskListSchema, component: "TaskList" };
// Prefer: wait=N (rest-server/routes/prefer-wait.ts), shared by task creation and task reads.
export const preferWaitHeaders = z.object({
  Prefer: z
    .string()
    .optional()
    .describe("wait=N (N ≤ 60 seconds): answer once the task has ended or N seconds have passed; Preference-Applied says it was applied."),
});
export const signingKey = { schema: documentedSigningKeySchema, component: "CallbackSigningKey" };
