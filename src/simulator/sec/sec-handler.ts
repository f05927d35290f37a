import { IncomingMessage, ServerResponse } from 'node:http';
import { send } from '../http-io';
import { clientOf } from '../json-reply';
import { ProtocolContext, StartedProtocol } from '../simulator-protocol';
import { buildSecRegistrants, SecRegistrant } from '../world/sec-registrants';
import { filingHistory } from './filing-history';
import { SEC_BLOCK_MS, SEC_REQUESTS_PER_SECOND_LIMIT, SecRateLimit } from './sec-rate-limit';
import { columnsOf, companyTickersBody, splitHistory, submissionsBody } from './submissions-body';

/** Both SEC hosts (data.sec.gov and www.sec.gov) answer under this prefix: they share one rate limit, as upstream. */
export const SEC_PATH = '/sec';
const DAY_MS = 86_400_000;
/** Registrants whose documents of the day are kept serialized; a history is ~5,000 filings to draw. */
const DOCUMENTS_CACHED = 32;
/** What SEC asks every automated client to declare: a contact address in the User-Agent. */
const DECLARED = /[^\s@()<>]+@[^\s@()<>]+\.[A-Za-z]{2,}/;
const SUBMISSIONS = /^\/submissions\/CIK(\d{10})\.json$/;
const PAGE = /^\/submissions\/CIK(\d{10})-submissions-(\d{3})\.json$/;
const ARCHIVES = /^\/Archives\/edgar\/data\/(\d{1,10})\/\d{18}\/[\w./-]+$/;

const UNDECLARED_PAGE = `<!DOCTYPE html><html><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head><body>
<h1>Your Request Originates from an Undeclared Automated Tool</h1>
<p>To allow for equitable access to all users, SEC reserves the right to limit requests originating from undeclared automated tools.
Your request has been identified as part of a network of automated tools outside of the acceptable policy and will be managed until action is taken to declare your traffic.</p>
<p>Please declare your traffic by updating your user agent to include company specific information.</p>
<p>User-Agent: Sample Company Name AdminContact@&lt;sample company domain&gt;.com</p></body></html>`;
const RATE_PAGE = `<!DOCTYPE html><html><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head><body>
<h1>Request Rate Threshold Exceeded</h1>
<p>To allow for equitable access to all users, SEC reserves the right to limit requests originating from undeclared automated tools.
Current guidelines limit users to a total of no more than 10 requests per second, regardless of the number of machines used to submit requests.</p>
<p>Your access will be limited until the rate of requests has dropped below the threshold for 10 minutes.</p></body></html>`;
const NO_SUCH_KEY = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>';

export interface SecCounters {
  requestsByRoute: Record<string, number>;
  /** 403: no User-Agent, or one that declares no contact. */
  undeclared: number;
  rateLimited: number;
  /** The most requests one address sent within one clock second. */
  peakPerSecond: number;
}

export interface SecSimulation extends StartedProtocol {
  counters: SecCounters;
  registrants: readonly SecRegistrant[];
  resetCounters(): void;
}

function emptyCounters(): SecCounters {
  return { requestsByRoute: {}, undeclared: 0, rateLimited: 0, peakPerSecond: 0 };
}

/** One registrant's documents of one day, serialized once: the submissions body and its older pages. */
interface Documents {
  submissions: string;
  pages: string[];
}

/**
 * SEC EDGAR under `/sec`: company_tickers.json for every US stock of the world, each registrant's submissions
 * (recent block plus older pages, in the real column shape) and a stub document for every filing URL. An
 * undeclared User-Agent is answered 403 as SEC does; past the per-second limit the address is limited for
 * SEC's 10 minutes, answered 429 with SEC's threshold page and no Retry-After (SEC has answered both 403 and
 * 429 here; 429 keeps it apart from the undeclared-tool 403).
 */
export function startSec({ world, options, clock }: ProtocolContext): SecSimulation {
  const limit = new SecRateLimit(options.secRequestsPerSecond ?? SEC_REQUESTS_PER_SECOND_LIMIT, options.secBlockMs ?? SEC_BLOCK_MS);
  const registrants = buildSecRegistrants(world.seed, world.markets.listings);
  const byCik = new Map(registrants.map((registrant) => [registrant.cik, registrant]));
  const tickersBody = JSON.stringify(companyTickersBody(registrants));
  const documents = new Map<string, Documents>();
  const counters = emptyCounters();

  const documentsOf = (registrant: SecRegistrant, now: number): Documents => {
    const key = `${registrant.cik}:${Math.floor(now / DAY_MS)}`;
    let cached = documents.get(key);
    if (!cached) {
      const history = filingHistory(registrant, now);
      const split = splitHistory(history.filings, now);
      cached = { submissions: JSON.stringify(submissionsBody(registrant, history, split)), pages: split.pages.map((page) => JSON.stringify(columnsOf(page))) };
      if (documents.size >= DOCUMENTS_CACHED) documents.delete(documents.keys().next().value as string);
      documents.set(key, cached);
    }
    return cached;
  };

  const route = (res: ServerResponse, path: string, now: number): string => {
    if (path === '/files/company_tickers.json') {
      send(res, 200, tickersBody, 'application/json');
      return 'company_tickers';
    }
    const submissions = SUBMISSIONS.exec(path);
    const page = PAGE.exec(path);
    const owner = byCik.get(Number((submissions ?? page)?.[1]));
    if (owner && submissions) {
      send(res, 200, documentsOf(owner, now).submissions, 'application/json');
      return 'submissions';
    }
    const pageBody = owner && page ? documentsOf(owner, now).pages[Number(page[2]) - 1] : undefined;
    if (pageBody !== undefined) {
      send(res, 200, pageBody, 'application/json');
      return 'submissions/page';
    }
    const archive = ARCHIVES.exec(path);
    if (archive && byCik.has(Number(archive[1]))) {
      send(res, 200, `<html><body><p>Simulated EDGAR document ${path}</p></body></html>`, 'text/html');
      return 'archives';
    }
    send(res, 404, NO_SUCH_KEY, 'application/xml');
    return 'not-found';
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const now = clock();
    const admitted = limit.admit(clientOf(req.socket.remoteAddress), now);
    counters.peakPerSecond = limit.peakPerSecond;
    if (!admitted) {
      counters.rateLimited++;
      return send(res, 429, RATE_PAGE, 'text/html');
    }
    if (!DECLARED.test(req.headers['user-agent'] ?? '')) {
      counters.undeclared++;
      return send(res, 403, UNDECLARED_PAGE, 'text/html');
    }
    if (req.method !== 'GET') return send(res, 405, 'Method Not Allowed', 'text/plain');
    const name = route(res, path.slice(SEC_PATH.length), now);
    counters.requestsByRoute[name] = (counters.requestsByRoute[name] ?? 0) + 1;
  };

  return {
    counters,
    registrants,
    resetCounters: () => {
      Object.assign(counters, emptyCounters());
      limit.reset();
    },
    handle,
  };
}
