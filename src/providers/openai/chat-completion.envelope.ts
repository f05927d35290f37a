import { SchemaReader } from '../kit/schema-reader';
import { OPENAI_PROVIDER } from './openai-upstream-error';

const { asObject, asArray, shapeError } = new SchemaReader(OPENAI_PROVIDER);

/**
 * The answer text of a chat completion (`choices[0].message.content`), or UpstreamError 'shape' when there
 * is no usable answer: cut at the token cap, stopped by a content filter, refused, or empty. The refusal's
 * own words are the model's output and stay out of the message, like any other part of the body.
 */
export function readCompletionContent(completion: unknown): string {
  const choices = asArray(asObject(completion, 'completion').raw.choices, 'completion.choices');
  if (choices.length === 0) throw shapeError('completion.choices', 'no choice');
  const choice = asObject(choices[0], 'completion.choices[0]');
  const finishReason = choice.raw.finish_reason;
  // Checked before the content: a cut answer may still hold the first characters of valid-looking JSON.
  if (finishReason === 'length') throw shapeError('completion', 'answer cut at the token cap (finish_reason length)');
  if (finishReason === 'content_filter') throw shapeError('completion', 'answer stopped by the content filter');
  const message = choice.object('message');
  const refusal = message.raw.refusal;
  if (typeof refusal === 'string' && refusal.trim() !== '') throw shapeError('completion', 'the model refused to answer');
  const content = message.raw.content;
  if (typeof content !== 'string' || content.trim() === '') throw shapeError('completion.choices[0].message.content', 'no answer');
  return content;
}
