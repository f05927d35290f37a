import { shapeErrorOf, vendorFixture } from '../../../test/support/vendor-fixtures';
import { readCompletionContent } from './chat-completion.envelope';

const fixture = (name: string) => vendorFixture('openai', `chat.completion.json_schema.${name}`);

describe(readCompletionContent.name, () => {
  it('returns the answer text of the recorded 2024 envelope', () => {
    expect(readCompletionContent(fixture('json'))).toBe('{"city":"San Francisco","units":"c"}');
  });

  it('returns the answer text of the recorded 2025 envelope with sorted keys and newer fields', () => {
    expect(readCompletionContent(fixture('2025-sorted-keys.json'))).toBe('{"city":"Mexico City","country":"Mexico"}');
  });

  it('rejects the recorded refusal without repeating it', () => {
    const error = shapeErrorOf(() => readCompletionContent(fixture('refusal.json')));
    expect(error.message).toBe('openai: completion: the model refused to answer');
  });

  it('rejects the recorded answer cut at the token cap, although its content is not empty', () => {
    const recorded = fixture('length.json');
    expect(recorded.choices[0].message.content).toBe('{"');
    expect(shapeErrorOf(() => readCompletionContent(recorded)).message).toContain('cut at the token cap');
  });

  it('rejects an answer stopped by the content filter', () => {
    const filtered = fixture('json');
    filtered.choices[0].finish_reason = 'content_filter';
    expect(shapeErrorOf(() => readCompletionContent(filtered)).message).toContain('content filter');
  });

  it.each([null, '', '  \n'])('rejects the content %p as no answer', (content) => {
    const empty = fixture('json');
    empty.choices[0].message.content = content;
    expect(shapeErrorOf(() => readCompletionContent(empty)).message).toContain('completion.choices[0].message.content: no answer');
  });

  it('rejects a body that is not an envelope', () => {
    expect(shapeErrorOf(() => readCompletionContent('<html>busy</html>')).message).toContain('completion: expected object, got string');
    expect(shapeErrorOf(() => readCompletionContent({ ...fixture('json'), choices: [] })).message).toContain('completion.choices: no choice');
    expect(shapeErrorOf(() => readCompletionContent({ choices: [{ finish_reason: 'stop' }] })).message).toContain('message: expected object');
  });
});
