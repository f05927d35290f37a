import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { vendorFixture } from '../../../test/support/vendor-fixtures';
import { AppConfig } from '../../config/app.config';
import { upstreamCalls } from '../../infra/metrics/metrics';
import { AnalysisText, EnglishAnalysis } from '../analysis-provider';
import { ProviderDisabledError } from '../kit/provider-disabled.error';
import { UpstreamError } from '../kit/upstream.error';
import { OpenAiAnalysisProvider } from './openai-analysis.provider';

type Reply = { status?: number; body: string; headers?: Record<string, string> } | 'hang';

/** A local OpenAI-compatible server: answers queued replies in order, recording every request with its JSON body. */
class ChatCompletionsStub {
  readonly received: Array<{ path: string; headers: IncomingHttpHeaders; body: any }> = [];
  readonly replies: Reply[] = [];
  baseUrl = '';
  private server?: Server;

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        const reply = this.replies.shift() ?? { status: 500, body: '{"error":{"message":"no reply queued"}}' };
        if (reply === 'hang') return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body);
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    this.server = server;
    this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

const API_KEY = 'sk-test-0123456789abcdef';

const ANALYSIS: EnglishAnalysis = {
  title: 'Spot bitcoin ETFs draw $1.2bn of inflows in a week',
  coreSummary: 'US spot bitcoin ETFs took in $1.2bn over five trading days, the most since March.',
  direction: 'bullish',
  affectedAssets: 'BTC (Bitcoin), IBIT (iShares Bitcoin Trust)',
  impactLogic: 'Sustained ETF demand absorbs more coins than miners issue, supporting the price.',
  timeHorizon: 'short_term',
  risksAndWatchlist: 'Watch daily flow reports and US rate expectations; outflows would reverse the view.',
  sentiment: 0.6,
};

const FRENCH = {
  title: 'Les ETF bitcoin au comptant attirent 1,2 Md$ en une semaine',
  coreSummary: 'Les ETF bitcoin au comptant américains ont collecté 1,2 Md$ en cinq séances, un record depuis mars.',
  affectedAssets: 'BTC (Bitcoin), IBIT (iShares Bitcoin Trust)',
  impactLogic: 'Une demande soutenue des ETF absorbe plus de pièces que les mineurs n’en émettent.',
  timeHorizon: 'court terme',
  risksAndWatchlist: 'Surveiller les flux quotidiens et les anticipations de taux américains.',
};

const ITEM = {
  title: 'Bitcoin ETFs log biggest weekly inflow since March',
  summary: 'Spot bitcoin funds in the US took in $1.2 billion over the week.',
  assets: [{ symbol: 'BTC', name: 'Bitcoin', type: 'CRYPTO' }],
  concepts: ['ETF'],
};

/** A recorded OpenAI envelope, byte for byte but for `choices[0].message.content`, replaced with our answer. */
function recordedEnvelopeWith(fixture: string, content: unknown): string {
  const envelope = vendorFixture('openai', fixture);
  envelope.choices[0].message.content = JSON.stringify(content);
  return JSON.stringify(envelope);
}

function recorded(fixture: string): string {
  return JSON.stringify(vendorFixture('openai', fixture));
}

async function rejectionOf(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (err: unknown) => err,
  );
  if (!(error instanceof UpstreamError)) throw error;
  return error;
}

async function okCalls(): Promise<number> {
  const { values } = await upstreamCalls.get();
  return values.find((v) => v.labels.provider === 'openai' && v.labels.outcome === 'ok')?.value ?? 0;
}

describe(OpenAiAnalysisProvider.name, () => {
  const stub = new ChatCompletionsStub();
  let warn: jest.SpyInstance;

  beforeEach(async () => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await stub.start();
  });
  afterEach(async () => {
    warn.mockRestore();
    await stub.stop();
    stub.received.length = 0;
    stub.replies.length = 0;
  });

  function makeSut(llm: Partial<AppConfig['news']['llm']> = {}): OpenAiAnalysisProvider {
    const settings = { baseUrl: stub.baseUrl, model: 'gpt-4o-mini', apiKey: API_KEY, timeoutMs: 5_000, maxTokens: 900, ...llm };
    const config = { get: (key: string) => (key === 'news' ? { llm: settings } : undefined) };
    return new OpenAiAnalysisProvider(config as unknown as ConfigService<AppConfig, true>);
  }

  describe('analyse', () => {
    it('returns the analysis typed from a recorded envelope whose content was replaced with a valid answer', async () => {
      stub.replies.push({ body: recordedEnvelopeWith('chat.completion.json_schema.json', ANALYSIS) });
      const sut = makeSut();
      await expect(sut.analyse(ITEM)).resolves.toEqual(ANALYSIS);
    });

    it('sends the model, a strict schema requiring every property, the token cap and the key', async () => {
      // The 2025 envelope (sorted keys, newer fields) parses as well.
      stub.replies.push({ body: recordedEnvelopeWith('chat.completion.json_schema.2025-sorted-keys.json', ANALYSIS) });
      const sut = makeSut();
      await sut.analyse(ITEM);
      const [request] = stub.received;
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(request.body).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 900, response_format: { type: 'json_schema', json_schema: { strict: true } } });
      expect(request.body.temperature).toBeLessThanOrEqual(0.3);
      const schema = request.body.response_format.json_schema.schema;
      expect(schema.required).toEqual(Object.keys(ANALYSIS));
      expect([...schema.required].sort()).toEqual(Object.keys(schema.properties).sort());
      expect(request.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
      expect(JSON.parse(request.body.messages[1].content)).toMatchObject({ title: ITEM.title, linkedAssets: ITEM.assets, concepts: ['ETF'] });
    });

    it('names the configured model and the prompt version as provenance', () => {
      const sut = makeSut({ model: 'qwen2.5:7b' });
      expect([sut.name, sut.model, sut.translates]).toEqual(['openai', 'qwen2.5:7b#p1', true]);
    });

    it('counts a successful call', async () => {
      stub.replies.push({ body: recordedEnvelopeWith('chat.completion.json_schema.json', ANALYSIS) });
      const before = await okCalls();
      await makeSut().analyse(ITEM);
      expect(await okCalls()).toBe(before + 1);
    });

    it('rejects the recorded refusal as shape, without its words', async () => {
      stub.replies.push({ body: recorded('chat.completion.json_schema.refusal.json') });
      const error = await rejectionOf(makeSut().analyse(ITEM));
      expect([error.kind, error.provider]).toEqual(['shape', 'openai']);
      expect(error.message).toContain('refused');
      expect(error.message).not.toContain('sorry');
    });

    it('rejects the recorded answer cut at the token cap as shape', async () => {
      stub.replies.push({ body: recorded('chat.completion.json_schema.length.json') });
      const error = await rejectionOf(makeSut().analyse(ITEM));
      expect(error.kind).toBe('shape');
      expect(error.message).toContain('token cap');
    });

    it.each(['chat.completion.json_schema.json', 'chat.completion.json_schema.nested.json'])(
      'rejects the recorded %s, valid JSON of another schema, as shape',
      async (fixture) => {
        stub.replies.push({ body: recorded(fixture) });
        const error = await rejectionOf(makeSut().analyse(ITEM));
        expect(error.kind).toBe('shape');
        expect(error.message).toContain('answer.direction');
      },
    );

    it('rejects a 200 whose body is not JSON as shape', async () => {
      stub.replies.push({ body: '<html>upstream busy</html>' });
      const error = await rejectionOf(makeSut().analyse(ITEM));
      expect([error.kind, error.message]).toEqual(['shape', 'openai: chat completion response is not JSON']);
    });

    it('rejects a 500 as http with its status, after one retry, without the body in the message', async () => {
      const body = '{"error":{"message":"secret-internal-detail"}}';
      for (let i = 0; i < 2; i += 1) stub.replies.push({ status: 500, body, headers: { 'retry-after-ms': '0' } });
      const error = await rejectionOf(makeSut().analyse(ITEM));
      expect([error.kind, error.upstreamStatus, error.retryable]).toEqual(['http', 500, true]);
      expect(stub.received).toHaveLength(2);
      expect(error.message).not.toContain('secret-internal-detail');
      expect(error.message).not.toContain('127.0.0.1');
      expect(warn).toHaveBeenCalledWith('analyse failed (http): openai: chat completion answered HTTP 500');
    });

    it('rejects a 401 as http at once, never echoing the key', async () => {
      stub.replies.push({ status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${API_KEY}`, code: 'invalid_api_key' } }) });
      const error = await rejectionOf(makeSut().analyse(ITEM));
      expect([error.kind, error.upstreamStatus, stub.received.length]).toEqual(['http', 401, 1]);
      expect(error.message).toBe('openai: chat completion answered HTTP 401 (invalid_api_key)');
    });

    it('rejects as timeout when no answer comes within the deadline', async () => {
      stub.replies.push('hang', 'hang');
      const error = await rejectionOf(makeSut({ timeoutMs: 150 }).analyse(ITEM));
      expect(error.kind).toBe('timeout');
    });

    it('rejects as network when nothing listens', async () => {
      await stub.stop();
      const error = await rejectionOf(makeSut().analyse(ITEM));
      expect(error.kind).toBe('network');
      expect(error.message).toContain('ECONNREFUSED');
    });

    it('rejects as aborted, named AbortError, when the caller stops waiting, and logs nothing', async () => {
      stub.replies.push('hang');
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const error = await rejectionOf(makeSut().analyse({ ...ITEM, signal: controller.signal }));
      expect([error.kind, error.name]).toEqual(['aborted', 'AbortError']);
      expect(warn).not.toHaveBeenCalled();
    });

    it('stops at once when aborted while the SDK waits out a Retry-After', async () => {
      stub.replies.push({ status: 429, body: '{}', headers: { 'retry-after-ms': '1500' } });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const startedAt = Date.now();
      const error = await rejectionOf(makeSut().analyse({ ...ITEM, signal: controller.signal }));
      expect(error.kind).toBe('aborted');
      expect(Date.now() - startedAt).toBeLessThan(1_000);
    });

    it('constructs without a base URL or model, and its calls reject as disabled', async () => {
      const sut = makeSut({ baseUrl: undefined, model: undefined });
      await expect(sut.analyse(ITEM)).rejects.toBeInstanceOf(ProviderDisabledError);
      expect(stub.received).toHaveLength(0);
    });
  });

  describe('translate', () => {
    const { sentiment: _sentiment, ...english } = ANALYSIS;

    it('returns the translation with the English direction, asking for the locale with a strict schema', async () => {
      stub.replies.push({ body: recordedEnvelopeWith('chat.completion.json_schema.json', FRENCH) });
      const sut = makeSut();
      await expect(sut.translate({ analysis: english, locale: 'fr' })).resolves.toEqual({ ...FRENCH, direction: 'bullish' });
      const { body } = stub.received[0];
      expect(body.response_format.json_schema.strict).toBe(true);
      expect(body.response_format.json_schema.schema.required).toEqual(Object.keys(FRENCH));
      expect(body.messages[0].content).toContain('French');
      expect(JSON.parse(body.messages[1].content)).toEqual(pickTranslated(english));
    });

    it('rejects an answer that is the English again as shape', async () => {
      stub.replies.push({ body: recordedEnvelopeWith('chat.completion.json_schema.json', pickTranslated(english)) });
      const error = await rejectionOf(makeSut().translate({ analysis: english, locale: 'es' }));
      expect(error.kind).toBe('shape');
      expect(error.message).toContain('not a translation');
    });

    it('rejects an answer with an empty field as shape', async () => {
      stub.replies.push({ body: recordedEnvelopeWith('chat.completion.json_schema.json', { ...FRENCH, impactLogic: ' ' }) });
      const error = await rejectionOf(makeSut().translate({ analysis: english, locale: 'fr' }));
      expect(error.message).toContain('answer.impactLogic');
    });
  });
});

function pickTranslated(analysis: AnalysisText): Omit<AnalysisText, 'direction'> {
  const { direction: _direction, ...fields } = analysis;
  return fields;
}
