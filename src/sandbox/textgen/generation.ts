/** What the simulated model produced: by the generator, or by the extractive summary. */
export type StopReason = 'length' | 'end_token' | 'stop_before';

export interface Generation {
  /** The generated text only (no prompt, no restart). */
  text: string;
  tokens: string[];
  /** Probability with which each token was chosen. */
  probs: number[];
  stopReason: StopReason;
}
