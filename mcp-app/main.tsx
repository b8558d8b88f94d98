import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps";
import { render } from "preact";
import { followTask } from "./follow-task";
import { connectToHost, type HostConnection, type ToolResult } from "./host-connection";
import { applyHostLook } from "./host-theme";
import { modelSummary, refusalSummary } from "./model-summary";
import { errorOf, isTerminal, structuredOf, taskOf, type Task } from "./task";
import { TaskCard, type CardState } from "./task-card";
import type { Saver } from "./task-output";

// The task view's life: connect to the host, take the arguments and the result of the tool call it pushes, follow
// the task with svc.tasks.get through the host until it ends, tell the model how it ended, and redraw on every
// change.

const root = document.getElementById("task-app") as HTMLElement;
let state: CardState = { title: "Task", canceling: false };
let connection: HostConnection | null = null;
let following: string | null = null;
let closed = false;

function draw(): void {
  render(<TaskCard state={state} saver={saver} cancel={() => void cancel()} />, root);
}

function update(change: Partial<CardState>): void {
  state = { ...state, ...change };
  draw();
}

// The tool whose call the view shows, as the host listed it; the view calls the others in the same naming (dotted
// on /mcp, underscored on /mcp/underscore), since a host passes on only names it listed.
function shownTool(): string {
  return connection?.context.toolInfo?.tool.name ?? "svc.tasks.get";
}

function toolNamed(dotted: string): string {
  return shownTool().includes(".") ? dotted : dotted.replace(/\./g, "_");
}

// A view shown with a create tool's call, rather than with svc.tasks.get's.
function shownByCreate(): boolean {
  const tool = connection?.context.toolInfo?.tool;
  return tool !== undefined && !/tasks[._]get$/.test(tool.name);
}

// The create tool's title; a view opened by svc.tasks.get is titled by what its task does, not "Get a task".
function titleFor(task: Task | undefined): string {
  const tool = connection?.context.toolInfo?.tool;
  if (tool && shownByCreate()) return tool.title ?? tool.name;
  const words = task?.capability.replace(/_/g, " ") ?? "task";
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// A later answer never takes an ended task back to running: a cancel's answer can arrive before the wait that
// was already under way.
function show(task: Task): void {
  const current = state.task;
  if (current?.task_id === task.task_id && isTerminal(current) && !isTerminal(task)) return;
  update({ task, problem: undefined, problemContext: undefined, title: titleFor(task) });
}

async function tellModel(summary: string): Promise<void> {
  if (!connection?.capabilities.updateModelContext) return;
  try {
    await connection.updateModelContext(summary);
  } catch (error) {
    // The host keeps its own record of the call; the user still sees the result.
    console.warn("task view: the host did not take the summary", error);
  }
}

async function follow(taskId: string): Promise<void> {
  if (!connection || following === taskId) return;
  following = taskId;
  const problem = await followTask(connection, toolNamed("svc.tasks.get"), taskId, show, () => closed || following !== taskId);
  if (closed || following !== taskId) return;
  if (problem) update({ problem, problemContext: "Stopped following the task." });
  else if (state.task && isTerminal(state.task)) await tellModel(modelSummary(state.task));
}

async function cancel(): Promise<void> {
  const task = state.task;
  if (!connection || !task) return;
  update({ canceling: true, notice: undefined });
  try {
    const result = await connection.callTool(toolNamed("svc.tasks.cancel"), { task_id: task.task_id });
    const answer = structuredOf(result);
    const canceled = result.isError ? null : taskOf(answer);
    const refusal = errorOf(answer);
    if (canceled) show(canceled);
    // The server's message is for the agent (it names tools and says to keep polling); a person needs to know
    // the task goes on and ends by itself.
    else if (refusal?.code === "conflict") update({ cancelRefused: true, notice: "This model can't be stopped once it has started: the task will finish on its own." });
    else update({ notice: refusal?.message ?? "The task could not be canceled." });
  } catch (error) {
    update({ notice: `The host did not pass the cancel on: ${error instanceof Error ? error.message : String(error)}` });
  } finally {
    update({ canceling: false });
  }
}

const saver: Saver = {
  get viaHost() {
    return Boolean(connection?.capabilities.downloadFile || connection?.capabilities.openLinks);
  },
  save(artifact) {
    connection?.download({ url: artifact.url, name: `${artifact.artifact_id}.${artifact.format ?? "bin"}`, mimeType: artifact.content_type }).catch((error: unknown) => {
      update({ notice: `The host did not take the download: ${error instanceof Error ? error.message : String(error)}` });
    });
  },
};

// Every ending of a create the view shows is told to the model once: a task followed to its end (follow), one
// that had already ended, and a call refused at once. A view opened by svc.tasks.get tells nothing: the model
// asked, and has the answer.
function received(result: ToolResult): void {
  const answer = structuredOf(result);
  const task = result.isError ? null : taskOf(answer);
  if (!task) {
    const problem = errorOf(answer) ?? { code: "unreadable_answer", message: "The tool answered something other than a task." };
    update({ problem });
    if (shownByCreate()) void tellModel(refusalSummary(shownTool(), problem));
    return;
  }
  show(task);
  if (!isTerminal(task)) void follow(task.task_id);
  else if (shownByCreate()) void tellModel(modelSummary(task));
}

function requestText(args: Record<string, unknown>): string | undefined {
  const text = args.prompt ?? args.input ?? args.instruction ?? args.display_name;
  return typeof text === "string" ? text : undefined;
}

function lookChanged(context: McpUiHostContext): void {
  if (connection) connection.context = { ...connection.context, ...context };
  applyHostLook(context);
}

draw();
const connecting = connectToHost({
  toolInput: (args) => update({ request: requestText(args) }),
  // The host pushes the result once the view has said it is ready, so the connection is known by then.
  toolResult: (result) => void connecting.then(() => received(result)),
  toolCancelled: (reason) => update({ notice: `The host canceled the call${reason ? `: ${reason}` : "."}` }),
  contextChanged: lookChanged,
  teardown: () => {
    closed = true;
  },
});
void connecting.then((connected) => {
  connection = connected;
  applyHostLook(connected.context);
  update({ title: titleFor(state.task) });
});
