/** What a simulated program produces; the runtime applies faults, writes the streams and records the transcript. */
export interface Outcome {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly exitCode: number;
}
