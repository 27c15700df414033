import { describe, expect, it } from 'vitest';
import { generatedPart, summaryCue, summaryParameters, summaryPrompt } from '../../src/mcp/summary-prompt.js';

describe('summary prompt', () => {
  it('asks for a summary in the target language and ends with the cue', () => {
    const prompt = summaryPrompt('  Some text.  ', 'English', 'short');
    expect(prompt).toContain('Summarize the text below in English, in one or two sentences.');
    expect(prompt).toContain('### Text\nSome text.\n');
    expect(prompt.endsWith(`${summaryCue('English')}\n`)).toBe(true);
    expect(summaryParameters('long')).toMatchObject({ maxTokens: 600, temperature: 0.3, stopBefore: ['###'] });
  });

  it('keeps only the generated part of result.text', () => {
    const prompt = summaryPrompt('Text.', 'English', 'medium');
    const cue = summaryCue('English');
    expect(generatedPart(`${prompt}A short summary.`, prompt, cue)).toBe('A short summary.');
    // The service echoed the prompt with changed whitespace: what follows the cue.
    expect(generatedPart(`${prompt.replace(/\n/g, ' ')} The summary.`, prompt, cue)).toBe('The summary.');
    expect(generatedPart(' Only output. ', prompt, cue)).toBe('Only output.');
  });
});
