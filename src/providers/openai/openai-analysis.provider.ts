import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import { abortError } from '../../common/async/abort';
import { AppConfig } from '../../config/app.config';
import { upstreamCalls, upstreamDuration, upstreamErrors } from '../../infra/metrics/metrics';
import { AnalyseNewsParams, AnalysisProvider, AnalysisText, EnglishAnalysis, TranslateAnalysisParams } from '../analysis-provider';
import { ProviderDisabledError } from '../kit/provider-disabled.error';
import { UpstreamError } from '../kit/upstream.error';
import { readAnalysisAnswer, readTranslationAnswer } from './analysis-answer.validation';
import { readCompletionContent } from './chat-completion.envelope';
import { analysisMessages, PROMPT_VERSION, translationMessages } from './news-analysis.prompts';
import { NEWS_ANALYSIS_FORMAT, NEWS_TRANSLATION_FORMAT } from './news-analysis.schema';
import { OPENAI_PROVIDER, upstreamErrorOf } from './openai-upstream-error';

/** Local servers (Ollama, vLLM, llama.cpp) ignore the key, but the SDK refuses to start without one. */
const LOCAL_SERVER_API_KEY = 'no-key';
/** One retry (429, 5xx, timeouts, connection failures); the analysis job retries the item later beyond that. */
const MAX_RETRIES = 1;
/** Low for repeatable, factual answers, but not 0: some servers turn 0 into greedy decoding that loops. */
const ANSWER_TEMPERATURE = 0.2;

interface ChatCall<T> {
  /** Names the call in logs: a closed set. */
  label: 'analyse' | 'translate';
  messages: ChatCompletionMessageParam[];
  format: ResponseFormatJSONSchema;
  read: (content: string) => T;
  signal?: AbortSignal;
}

/**
 * The news analyser over any OpenAI-compatible chat-completions API (OpenAI, vLLM, Ollama, llama.cpp), asking
 * for a strict JSON schema and checking every answer again on our side. A refusal, an answer cut at the
 * token cap, invalid JSON or a failed check is UpstreamError 'shape'; HTTP, timeout and network failures are
 * kinds of their own. Without a base URL and model it still constructs (the slot builds every vendor), and
 * its calls reject as disabled.
 */
@Injectable()
export class OpenAiAnalysisProvider implements AnalysisProvider, OnModuleDestroy {
  readonly name = OPENAI_PROVIDER;
  readonly model: string;
  readonly translates = true;
  private readonly client?: OpenAI;
  private readonly modelName?: string;
  private readonly maxTokens: number;
  private readonly deadlineMs: number;
  private readonly stopping = new AbortController();
  private readonly logger = new Logger(OpenAiAnalysisProvider.name);

  constructor(config: ConfigService<AppConfig, true>) {
    const { baseUrl, model, apiKey, timeoutMs, maxTokens } = config.get('news', { infer: true }).llm;
    this.model = `${model ?? 'unconfigured'}#${PROMPT_VERSION}`;
    this.modelName = model;
    this.maxTokens = maxTokens;
    // The SDK's timeout covers one attempt up to the headers; this bounds the whole call, retry and body included.
    this.deadlineMs = timeoutMs * (MAX_RETRIES + 1);
    if (baseUrl && model) {
      this.client = new OpenAI({
        baseURL: baseUrl,
        apiKey: apiKey ?? LOCAL_SERVER_API_KEY,
        timeout: timeoutMs,
        maxRetries: MAX_RETRIES,
        // Explicit, so OPENAI_ORG_ID / OPENAI_PROJECT_ID in the environment never add headers; failures are logged here.
        organization: null,
        project: null,
        logLevel: 'off',
      });
    }
  }

  /** At shutdown: calls in flight end at once, as aborts. */
  onModuleDestroy(): void {
    this.stopping.abort(abortError('shutting down'));
  }

  analyse({ signal, ...item }: AnalyseNewsParams): Promise<EnglishAnalysis> {
    return this.call({ label: 'analyse', messages: analysisMessages(item), format: NEWS_ANALYSIS_FORMAT, read: readAnalysisAnswer, signal });
  }

  translate({ analysis, locale, signal }: TranslateAnalysisParams): Promise<AnalysisText> {
    return this.call({
      label: 'translate',
      messages: translationMessages({ analysis, locale }),
      format: NEWS_TRANSLATION_FORMAT,
      read: (content) => readTranslationAnswer({ content, source: analysis, locale }),
      signal,
    });
  }

  private async call<T>({ label, messages, format, read, signal }: ChatCall<T>): Promise<T> {
    if (!this.client || !this.modelName) throw new ProviderDisabledError('news analysis');
    const provider = OPENAI_PROVIDER;
    const endTimer = upstreamDuration.startTimer({ provider });
    try {
      const completion = await this.request(this.client, this.modelName, { messages, format, signal });
      const result = read(readCompletionContent(completion));
      upstreamCalls.inc({ provider, outcome: 'ok' });
      return result;
    } catch (err) {
      throw this.failed(label, err);
    } finally {
      endTimer();
    }
  }

  private async request(
    client: OpenAI,
    model: string,
    { messages, format, signal }: Pick<ChatCall<unknown>, 'messages' | 'format' | 'signal'>,
  ): Promise<unknown> {
    const stop = signal ? AbortSignal.any([this.stopping.signal, signal]) : this.stopping.signal;
    const deadline = AbortSignal.timeout(this.deadlineMs);
    const combined = AbortSignal.any([stop, deadline]);
    try {
      const completion = client.chat.completions.create(
        // max_tokens, not max_completion_tokens: the one OpenAI, vLLM, Ollama and llama.cpp all accept.
        { model, messages, response_format: format, max_tokens: this.maxTokens, temperature: ANSWER_TEMPERATURE },
        { signal: combined },
      );
      return await untilAborted(completion, combined);
    } catch (err) {
      throw upstreamErrorOf(err, { stop, deadline, deadlineMs: this.deadlineMs });
    }
  }

  /** Counts and logs the failed call; an abort is the caller stopping, not the upstream failing: not logged. */
  private failed(label: string, err: unknown): unknown {
    if (!(err instanceof UpstreamError)) return err;
    upstreamCalls.inc({ provider: OPENAI_PROVIDER, outcome: err.kind });
    if (err.kind === 'aborted') return err;
    upstreamErrors.inc({ provider: OPENAI_PROVIDER, kind: err.kind });
    this.logger.warn(`${label} failed (${err.kind}): ${err.message}`);
    return err;
  }
}

/**
 * Settles with `work`, or rejects as soon as `signal` aborts: the SDK sleeps out a server's Retry-After
 * before its retry without watching the signal, which would hold a stopping job for as long as asked.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
