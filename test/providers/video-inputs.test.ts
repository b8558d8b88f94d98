import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { probeMedia } from "../../core/media/probe.js";
import { startHarness, type Harness } from "../support/harness.js";
import { createTask, download, expectFullRefund, followTask, queueFault, vendorSubmits } from "./video-support.js";
import {
  COLOURS,
  colourSequenceMp4,
  dataUri,
  distance,
  framesOf,
  halvesPng,
  regionColour,
  shareNear,
  soundtrack,
  toneShare,
  toneWav,
  uploaded,
  type Frame,
  type Rgb,
} from "./video-media.js";

// Video from input media on every model that lists each capability, through the real worker and the vendor
// emulator over HTTP: the worker resolves the inputs, the emulated vendor downloads them from our signed URLs and
// renders from what it decoded. What is checked is what a caller downloads: the clip's size, length and codec,
// and that it visibly and audibly follows its inputs (strict frames, reference tiles, the edited or extended
// source, driving and reference audio). Faults of each protocol on these capabilities end refunded.

// Every task renders a clip: a bounded number at once keeps each one's wait reasonable on a busy machine.
vi.setConfig({ maxConcurrency: 16, testTimeout: 120_000 });
const FOLLOW_TIMEOUT_MS = 90_000;

let h: Harness;
const media = {} as {
  opening: string; // 16:9, red | yellow
  openingSquare: string; // 4:3, red | yellow
  closing: string; // 16:9, blue | green
  magenta: string;
  cyan: string;
  drivingAudio: string; // 880 Hz
  referenceAudio: string; // 660 Hz
  voice: string; // 330 Hz
  source: { type: string; artifact_id: string }; // 2 s, 640×360: red then blue, 440 Hz throughout
  greenClip: { type: string; artifact_id: string };
};

beforeAll(async () => {
  // Polls are jobs scheduled for later; a short worker poll interval keeps the waits for them short.
  h = await startHarness({ worker: true, credits: "1000", env: { WORKER_POLL_INTERVAL_MS: "100" } });
  const png = (bytes: Buffer) => dataUri(bytes, "image/png");
  const wav = (bytes: Buffer) => dataUri(bytes, "audio/wav");
  const [opening, openingSquare, closing, magenta, cyan, driving, reference, voice, source, green] = await Promise.all([
    // Every input within every model's published limits (the smallest side 300 px, clips of 2 s or more).
    halvesPng(640, 360, COLOURS.red!, COLOURS.yellow!),
    halvesPng(480, 360, COLOURS.red!, COLOURS.yellow!),
    halvesPng(640, 360, COLOURS.blue!, COLOURS.green!),
    halvesPng(640, 360, COLOURS.magenta!, COLOURS.magenta!),
    halvesPng(640, 360, COLOURS.cyan!, COLOURS.cyan!),
    toneWav(880, 2),
    toneWav(660, 2),
    toneWav(330, 2),
    colourSequenceMp4([COLOURS.red!, COLOURS.blue!], { width: 640, height: 360 }, 440),
    colourSequenceMp4([COLOURS.green!, COLOURS.green!], { width: 640, height: 360 }, null),
  ]);
  Object.assign(media, {
    opening: png(opening),
    openingSquare: png(openingSquare),
    closing: png(closing),
    magenta: png(magenta),
    cyan: png(cyan),
    drivingAudio: wav(driving),
    referenceAudio: wav(reference),
    voice: wav(voice),
    source: await uploaded(h, source, "source.mp4"),
    greenClip: await uploaded(h, green, "green.mp4"),
  });
});
afterAll(async () => h?.close());

const LEFT = [0.1, 0.35, 0.4, 0.65] as const;
const RIGHT = [0.6, 0.35, 0.9, 0.65] as const;
const CENTRE = [0.3, 0.35, 0.7, 0.65] as const;
// An input colour survives H.264 within this distance; a changed one lies well beyond it.
const SAME = 30;
const CHANGED = 50;

function expectPicture(frame: Frame, left: Rgb, right: Rgb) {
  expect(distance(regionColour(frame, LEFT), left)).toBeLessThan(SAME);
  expect(distance(regionColour(frame, RIGHT), right)).toBeLessThan(SAME);
}

interface Expected {
  width: number;
  height: number;
  seconds: number;
  audio: boolean;
}

// Runs a task to success and checks the clip a caller downloads: H.264 of the expected size, length and sound,
// billed for its seconds.
async function succeeded(path: string, model: string, body: Record<string, unknown>, expected: Expected) {
  const created = await createTask(h, path, { model, ...body });
  const { task } = await followTask(h, created.task_id, FOLLOW_TIMEOUT_MS);
  expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
  expect(task.resolved_model).toBe(model);
  expect(task.output.artifacts).toHaveLength(1);
  const artifact = task.output.artifacts[0];
  expect(artifact).toMatchObject({
    kind: "video", format: "mp4", content_type: "video/mp4", width: expected.width, height: expected.height, has_audio: expected.audio,
  });
  const video = await download(artifact.url);
  expect(video.subarray(4, 12).toString("latin1")).toBe("ftypisom");
  const probe = await probeMedia(video);
  expect(probe).toMatchObject({ codec: "h264", width: expected.width, height: expected.height, hasAudio: expected.audio });
  expect(Math.abs(probe.durationSeconds - expected.seconds)).toBeLessThanOrEqual(0.1);
  expect(task.usage.output_video_seconds).toBe(expected.seconds);
  expect(task.usage.credits).toBe(task.billing.charged_credits);
  return { task, video };
}

async function expectTone(video: Buffer, frequency: number, fromSeconds = 0, seconds = 0.9) {
  expect(toneShare(await soundtrack(video, fromSeconds, seconds), frequency)).toBeGreaterThan(0.2);
}

interface Case {
  model: string;
  body: Record<string, unknown>;
  expected: Expected;
  // Which optional inputs the model takes, so that each is exercised wherever it is offered.
  driving?: boolean;
}

const at480 = (seconds: number, audio = false): Expected => ({ width: 854, height: 480, seconds, audio });
const at720 = (seconds: number, audio = false): Expected => ({ width: 1280, height: 720, seconds, audio });
// vendorA-h3 always renders with sound.
const at768 = (seconds: number): Expected => ({ width: 1366, height: 768, seconds, audio: true });

describe.concurrent("image_to_video: the clip opens on the image exactly", () => {
  const cases: Case[] = [
    { model: "vendorA-h3", body: { resolution: "768p", duration: 4 }, expected: at768(4) },
    { model: "vendorC3.0-video", body: { resolution: "480p" }, expected: at480(5, true), driving: true },
    { model: "vendorC3.0-video-prime", body: { resolution: "720p" }, expected: at720(5, true), driving: true },
    // Models without a ratio list follow the image: a 4:3 image makes a 4:3 clip.
    { model: "vendorD-1.1-i2v", body: { resolution: "720p", image: "square" }, expected: { width: 960, height: 720, seconds: 8, audio: true } },
    { model: "vendorC2.7-i2v", body: { resolution: "720p", image: "square" }, expected: { width: 960, height: 720, seconds: 5, audio: true }, driving: true },
    { model: "vendorB-2", body: { resolution: "480p", duration: 4 }, expected: at480(4, true), driving: true },
    { model: "vendorB-2-fast", body: { resolution: "480p", duration: 4 }, expected: at480(4) },
    { model: "vendorB-2-mini", body: {}, expected: at480(5) },
    { model: "vendorB-2.5", body: { resolution: "480p", duration: 4 }, expected: at480(4, true), driving: true },
  ];
  for (const c of cases) {
    it(`${c.model}${c.driving ? ", driven by audio" : ""}`, async () => {
      const { image, ...body } = c.body;
      const request = {
        ...body,
        prompt: "The camera slowly pushes in",
        image: image === "square" ? media.openingSquare : media.opening,
        ...(c.driving ? { driving_audio: media.drivingAudio } : {}),
      };
      const { video } = await succeeded("/v1/videos/image-to-video", c.model, request, c.expected);
      const [first] = await framesOf(video, [0]);
      expectPicture(first!, COLOURS.red!, COLOURS.yellow!);
      if (c.driving) await expectTone(video, 880);
    });
  }
});

describe.concurrent("frames_to_video: first and last frames are the images given", () => {
  const cases: (Case & { lastOnly?: boolean })[] = [
    { model: "vendorA-h3", body: { resolution: "768p", duration: 4 }, expected: at768(4) },
    { model: "vendorC3.0-video", body: { resolution: "480p" }, expected: at480(5, true), driving: true },
    { model: "vendorC3.0-video-prime", body: { resolution: "720p" }, expected: at720(5), lastOnly: true },
    { model: "vendorC2.7-i2v", body: { resolution: "720p" }, expected: at720(5, true), driving: true },
    { model: "vendorB-2", body: { resolution: "480p", duration: 4 }, expected: at480(4, true), driving: true, lastOnly: true },
    { model: "vendorB-2-fast", body: { resolution: "480p", duration: 4 }, expected: at480(4) },
    { model: "vendorB-2-mini", body: {}, expected: at480(5) },
    { model: "vendorB-2.5", body: { resolution: "480p", duration: 4 }, expected: at480(4), lastOnly: true },
  ];
  for (const c of cases) {
    it(`${c.model}${c.lastOnly ? ", last frame only" : ""}${c.driving ? ", driven by audio" : ""}`, async () => {
      const request = {
        ...c.body,
        ...(c.lastOnly ? {} : { first_frame: media.opening }),
        last_frame: media.closing,
        ...(c.driving ? { driving_audio: media.drivingAudio } : {}),
      };
      const { video } = await succeeded("/v1/videos/frames-to-video", c.model, request, c.expected);
      const [first, last] = await framesOf(video, [0, c.expected.seconds * 24 - 1]);
      if (!c.lastOnly) expectPicture(first!, COLOURS.red!, COLOURS.yellow!);
      expectPicture(last!, COLOURS.blue!, COLOURS.green!);
      if (c.driving) await expectTone(video, 880);
    });
  }
});

describe.concurrent("reference_to_video: every reference is in the clip", () => {
  type Kinds = { video?: boolean; audio?: boolean; voice?: boolean };
  const cases: (Case & Kinds)[] = [
    { model: "vendorA-h3", body: { resolution: "768p", duration: 4 }, expected: at768(4) },
    { model: "vendorC3.0-video", body: { resolution: "480p" }, expected: at480(5, true), video: true, audio: true, voice: true },
    { model: "vendorC3.0-video-prime", body: { resolution: "720p" }, expected: at720(5, true), video: true, audio: true },
    { model: "vendorD-1.1-r2v", body: { resolution: "720p" }, expected: at720(8, true) },
    { model: "vendorC2.7-r2v", body: { resolution: "720p" }, expected: at720(5), video: true },
    { model: "vendorB-2", body: { resolution: "480p", duration: 4 }, expected: at480(4, true), video: true, audio: true },
    { model: "vendorB-2-fast", body: { resolution: "480p", duration: 4 }, expected: at480(4, true), video: true, audio: true },
    { model: "vendorB-2-mini", body: {}, expected: at480(5) },
    { model: "vendorB-2.5", body: { resolution: "480p", duration: 4 }, expected: at480(4, true), video: true, audio: true, voice: true },
  ];
  for (const c of cases) {
    const kinds = ["image", ...(c.video ? ["video"] : []), ...(c.audio ? ["audio"] : []), ...(c.voice ? ["voice"] : [])];
    it(`${c.model}: ${kinds.join(", ")}`, async () => {
      const references = [
        { kind: "image", media: media.magenta, role: "subject", ...(c.voice ? { reference_voice: media.voice } : {}) },
        { kind: "image", media: media.cyan, role: "scene" },
        ...(c.video ? [{ kind: "video", media: media.greenClip, role: "motion" }] : []),
        ...(c.audio ? [{ kind: "audio", media: media.referenceAudio }] : []),
      ];
      const { video } = await succeeded("/v1/videos/reference-to-video", c.model, { ...c.body, prompt: "They meet at a market", references }, c.expected);
      const [frame] = await framesOf(video, [24]);
      expect(shareNear(frame!, COLOURS.magenta!)).toBeGreaterThan(0.03);
      expect(shareNear(frame!, COLOURS.cyan!)).toBeGreaterThan(0.03);
      if (c.video) expect(shareNear(frame!, COLOURS.green!)).toBeGreaterThan(0.03);
      if (c.audio) await expectTone(video, 660);
      if (c.voice) await expectTone(video, 330);
    });
  }
});

describe.concurrent("video_edit: the source, visibly edited", () => {
  type Sound = "origin" | "generated" | "silent";
  const cases: (Case & { sound: Sound })[] = [
    { model: "vendorC3.0-video", body: { resolution: "480p", audio_setting: "origin" }, expected: at480(5, true), sound: "origin" },
    { model: "vendorC3.0-video-prime", body: { resolution: "720p", generate_audio: true, references: "image" }, expected: at720(5, true), sound: "generated" },
    // This model always makes its own soundtrack.
    { model: "vendorD-1.0-video-edit", body: {}, expected: at720(8, true), sound: "generated" },
    { model: "vendorC2.7-videoedit", body: { resolution: "720p", duration: 3, audio_setting: "origin" }, expected: at720(3, true), sound: "origin" },
    { model: "vendorB-2", body: { resolution: "480p", duration: 4, generate_audio: true }, expected: at480(4, true), sound: "generated" },
    { model: "vendorB-2-fast", body: { resolution: "480p", duration: 4 }, expected: at480(4), sound: "silent" },
    { model: "vendorB-2-mini", body: { references: "image" }, expected: at480(5), sound: "silent" },
    { model: "vendorB-2.5", body: { resolution: "480p", duration: 4, audio_setting: "origin" }, expected: at480(4, true), sound: "origin" },
  ];
  for (const c of cases) {
    it(`${c.model}: ${c.sound} sound${c.body.references ? ", with a reference" : ""}`, async () => {
      const { references, ...body } = c.body;
      const request = {
        ...body,
        source_video: media.source,
        instruction: "Turn it into a winter evening",
        ...(references ? { references: [{ kind: "image", media: media.magenta }] } : {}),
      };
      const { video } = await succeeded("/v1/videos/edit", c.model, request, c.expected);
      // The source is red for a second, then blue: the edit changes those colours and follows the change.
      const [inRed, inBlue] = await framesOf(video, [12, 36]);
      const editedRed = regionColour(inRed!, CENTRE);
      expect(distance(editedRed, COLOURS.red!)).toBeGreaterThan(CHANGED);
      expect(distance(regionColour(inBlue!, CENTRE), editedRed)).toBeGreaterThan(CHANGED);
      if (references) expect(shareNear(inRed!, COLOURS.magenta!)).toBeGreaterThan(0.03);
      // The source's 440 Hz tone is kept with `origin`; a model's own soundtrack is another sound.
      if (c.sound !== "silent") {
        const share = toneShare(await soundtrack(video, 0.1, 1.8), 440);
        if (c.sound === "origin") expect(share).toBeGreaterThan(0.2);
        else expect(share).toBeLessThan(0.05);
      }
    });
  }
});

describe.concurrent("video_extend: the source, then or after the new part, to the final duration", () => {
  // vendorB extends to 4 s at the least (Seedance's shortest duration); the others from 3.
  const cases: (Case & { direction: "before" | "after" })[] = [
    { model: "vendorC3.0-video", body: { resolution: "480p" }, expected: at480(3, true), direction: "after" },
    { model: "vendorC3.0-video-prime", body: { resolution: "720p" }, expected: at720(3, true), direction: "before" },
    { model: "vendorC2.7-i2v", body: { resolution: "720p" }, expected: at720(3, true), direction: "after" },
    { model: "vendorB-2", body: { resolution: "480p" }, expected: at480(4, true), direction: "before" },
    { model: "vendorB-2-fast", body: { resolution: "480p", generate_audio: true }, expected: at480(4, true), direction: "after" },
    { model: "vendorB-2-mini", body: {}, expected: at480(4, true), direction: "after" },
    { model: "vendorB-2.5", body: { resolution: "480p" }, expected: at480(4, true), direction: "before" },
  ];
  for (const c of cases) {
    it(`${c.model}: ${c.direction}`, async () => {
      const duration = c.expected.seconds;
      const request = { ...c.body, video: media.source, direction: c.direction, instruction: "The lights go out", duration };
      const { video } = await succeeded("/v1/videos/extend", c.model, request, c.expected);
      // Half-second marks (24 fps): the source's red and blue seconds, and the new part, in the asked order.
      const added = duration - 2;
      const start = c.direction === "after" ? 0 : added;
      // framesOf reads the marks in order: the new part's mark first when it comes before the source.
      const marks = [0.5, 1.5, 2.5, 3.5].slice(0, duration).map((second) => second * 24);
      const frames = await framesOf(video, marks);
      const [red, blue, addedFrame] = c.direction === "after" ? [frames[0], frames[1], frames[2]] : [frames[added], frames[added + 1], frames[0]];
      expect(distance(regionColour(red!, CENTRE), COLOURS.red!)).toBeLessThan(SAME);
      expect(distance(regionColour(blue!, CENTRE), COLOURS.blue!)).toBeLessThan(SAME);
      const addedColour = regionColour(addedFrame!, CENTRE);
      expect(Math.min(distance(addedColour, COLOURS.red!), distance(addedColour, COLOURS.blue!))).toBeGreaterThan(CHANGED);
      // The source keeps its own sound where it plays.
      await expectTone(video, 440, start + 0.1, 1.8);
    });
  }
});

describe.concurrent("text_to_video driven by an audio track: the track is the soundtrack", () => {
  const cases: Case[] = [
    { model: "vendorC3.0-video", body: { resolution: "480p" }, expected: at480(5, true) },
    { model: "vendorC3.0-video-prime", body: { resolution: "720p" }, expected: at720(5, true) },
    // A silent model still carries the track that drives it.
    { model: "vendorC2.7-t2v", body: { resolution: "720p" }, expected: at720(5, true) },
    { model: "vendorB-2", body: { resolution: "480p", duration: 4 }, expected: at480(4, true) },
    { model: "vendorB-2.5", body: { resolution: "480p", duration: 4 }, expected: at480(4, true) },
  ];
  for (const c of cases) {
    it(c.model, async () => {
      const { video } = await succeeded("/v1/videos/text-to-video", c.model, { ...c.body, prompt: "A drummer on a rooftop", audio: media.drivingAudio }, c.expected);
      await expectTone(video, 880);
    });
  }
});

// Scripted faults go to the next submission for a model, and the vendor's submissions are counted: these tests
// run once every test above has finished, so that no other task meets their fault or adds to the count.
describe("vendor faults and refusals on input-media tasks end with the right code and a full refund", () => {
  it.concurrent("video_extend: a duration not exceeding the decoded source fails at /duration, refunded, before any vendor call", async () => {
    const before = await vendorSubmits(h, "vendorC", "vendorC2.7-i2v");
    const created = await createTask(h, "/v1/videos/extend", {
      model: "vendorC2.7-i2v",
      video: media.source,
      direction: "after",
      instruction: "More of the same",
      duration: 2,
    });
    const { task } = await followTask(h, created.task_id, FOLLOW_TIMEOUT_MS);
    expect(task.status).toBe("failed");
    expect(task.error).toMatchObject({ code: "invalid_request", param: "/duration", retryable: false });
    expect(task.error.message).toContain("source video");
    await expectFullRefund(h, task);
    expect(await vendorSubmits(h, "vendorC", "vendorC2.7-i2v")).toBe(before);
  });

  // One fault per protocol, each of another kind: a refused submission, a blocked job, a result that cannot be
  // downloaded, and a rate limit outlasting every retry.
  const cases = [
    {
      family: "vendorA", model: "vendorA-h3", path: "/v1/videos/image-to-video", body: () => ({ image: media.opening }),
      kind: "safety", code: "safety_rejected", retryable: false, submits: 1,
    },
    {
      family: "vendorB", model: "vendorB-2-mini", path: "/v1/videos/frames-to-video", body: () => ({ first_frame: media.opening, last_frame: media.closing }),
      kind: "content_filtered", code: "content_filtered", retryable: false, submits: 1,
    },
    {
      family: "vendorC", model: "vendorC2.7-videoedit", path: "/v1/videos/edit",
      body: () => ({ source_video: media.source, instruction: "Sepia", resolution: "720p", duration: 3 }),
      kind: "bad_download", code: "model_output_invalid", retryable: true, submits: 1,
    },
    {
      family: "vendorD", model: "vendorD-1.1-r2v", path: "/v1/videos/reference-to-video", body: () => ({ references: [{ kind: "image", media: media.cyan }] }),
      kind: "http_429", code: "model_rate_limited", retryable: true, submits: 6,
    },
  ];
  for (const c of cases) {
    it.concurrent(`${c.model} ${c.path.split("/").pop()}: ${c.kind} → ${c.code}`, async () => {
      const before = await vendorSubmits(h, c.family, c.model);
      const retryAfter = c.kind === "http_429" ? { retry_after_seconds: 0 } : {};
      await queueFault(h, { family: c.family, model: c.model, kind: c.kind, times: c.submits, ...retryAfter });
      const created = await createTask(h, c.path, { model: c.model, ...c.body() });
      const { task } = await followTask(h, created.task_id, FOLLOW_TIMEOUT_MS);
      expect(task.status).toBe("failed");
      expect(task.error).toMatchObject({ code: c.code, retryable: c.retryable });
      expect((await vendorSubmits(h, c.family, c.model)) - before).toBe(c.submits);
      await expectFullRefund(h, task);
    });
  }
});
