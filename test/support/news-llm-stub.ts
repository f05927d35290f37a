import { createServer, IncomingMessage } from 'node:http';
import { AddressInfo } from 'node:net';
import { NewsLocale } from '../../src/providers/analysis-provider';
import { LOCALE_LANGUAGES } from '../../src/providers/openai/news-analysis.prompts';
import { vendorFixture } from './vendor-fixtures';

type TranslatedLocale = Exclude<NewsLocale, 'en'>;
type Data = Record<string, any>;

/**
 * A word in each locale's script that the stub's translations open every field with, so the provider's check that
 * a translation is written in the target script passes and a test can tell each locale's text apart.
 */
export const STUB_MARKS: Readonly<Record<TranslatedLocale, string>> = {
  'zh-CN': '译文',
  'zh-TW': '譯文',
  fr: 'Traduction',
  ru: 'Перевод',
  es: 'Traducción',
  ar: 'ترجمة',
  ko: '번역',
};

/** What the stub answers: analyses and translations built from the request, or the recorded refusal to everything. */
export type LlmStubMode = 'answer' | 'refuse';

export interface LlmStub {
  /** The API root to give as NEWS_LLM_BASE_URL. */
  baseUrl: string;
  mode: LlmStubMode;
  /** Requests received, by the response format asked for (news_analysis, news_analysis_translation) and locale. */
  calls: { analyse: number; translate: Partial<Record<TranslatedLocale, number>>; other: number };
  close(): Promise<void>;
}

/** The English analysis the stub writes for an item: derived from its title so a test can recompute it. */
export function stubAnalysisOf(item: { title: string; summary: string; linkedAssets: Array<{ symbol: string; name: string }> }) {
  const tone = [...item.title].reduce((sum, char) => sum + char.charCodeAt(0), 0) % 3;
  const [direction, sentiment] = (
    [
      ['bullish', 0.6],
      ['bearish', -0.6],
      ['neutral', 0],
    ] as const
  )[tone];
  return {
    title: `Analysis: ${item.title}`.slice(0, 120),
    coreSummary: item.summary.trim().length >= 2 ? item.summary.slice(0, 400) : item.title,
    direction,
    affectedAssets: item.linkedAssets.map((asset) => `${asset.symbol} (${asset.name})`).join(', ') || 'Broad crypto market',
    impactLogic: `The item reads ${direction} for the assets it names.`,
    timeHorizon: 'short_term',
    risksAndWatchlist: 'Watch follow-up reports and price confirmation.',
    sentiment,
  };
}

/** One locale's translation the stub writes of an English analysis's fields. */
export function stubTranslationOf(fields: Record<string, string>, locale: TranslatedLocale): Record<string, string> {
  const mark = STUB_MARKS[locale];
  return Object.fromEntries(
    Object.entries(fields).map(([field, text]) => [field, field === 'timeHorizon' ? `${mark} ${text.replace(/_/g, ' ')}` : `${mark}: ${text}`]),
  );
}

function readBody(req: IncomingMessage): Promise<Data> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Data);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    req.on('error', reject);
  });
}

function localeOf(systemPrompt: string): TranslatedLocale | undefined {
  return (Object.entries(LOCALE_LANGUAGES) as Array<[TranslatedLocale, string]>).find(([, language]) => systemPrompt.includes(language))?.[0];
}

/**
 * An OpenAI-compatible chat-completions server for the analysis job: it answers with the recorded success envelope
 * (shared/fixtures/openai/chat.completion.json_schema.json) whose message content is replaced by the analysis or
 * translation JSON built from the request, or with the recorded refusal.
 */
export async function startLlmStub(): Promise<LlmStub> {
  const envelope = vendorFixture('openai', 'chat.completion.json_schema.json');
  const refusal = vendorFixture('openai', 'chat.completion.json_schema.refusal.json');
  let served = 0;
  const server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return reply(404, { error: { message: 'not found' } });
    readBody(req)
      .then((request) => {
        const format: string = request.response_format?.json_schema?.name ?? '';
        const [system, user] = (request.messages as Data[]).map((message) => String(message.content));
        let content: unknown;
        if (format === 'news_analysis') {
          stub.calls.analyse += 1;
          content = stubAnalysisOf(JSON.parse(user));
        } else if (format === 'news_analysis_translation') {
          const locale = localeOf(system);
          if (!locale) return reply(400, { error: { message: 'no target language in the prompt' } });
          stub.calls.translate[locale] = (stub.calls.translate[locale] ?? 0) + 1;
          content = stubTranslationOf(JSON.parse(user), locale);
        } else {
          stub.calls.other += 1;
          return reply(400, { error: { message: `unexpected response_format ${format}` } });
        }
        if (stub.mode === 'refuse') return reply(200, refusal);
        served += 1;
        const [choice] = envelope.choices;
        reply(200, {
          ...envelope,
          id: `chatcmpl-stub-${served}`,
          model: request.model,
          choices: [{ ...choice, message: { ...choice.message, content: JSON.stringify(content) } }],
        });
      })
      .catch(() => reply(400, { error: { message: 'bad request body' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stub: LlmStub = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    mode: 'answer',
    calls: { analyse: 0, translate: {}, other: 0 },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return stub;
}
