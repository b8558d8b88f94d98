// Why one candidate model cannot honour a request: a specific code (unsupported_resolution, media_too_large, …)
// with the pointer of the field and what was received against what the model supports.
export interface CandidateFailure {
  model: string;
  code: string;
  param: string;
  message: string;
  received?: unknown;
  supported?: unknown;
}
