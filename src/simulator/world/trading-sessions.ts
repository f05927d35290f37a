import { ExchangeDef } from './stock-listings';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** 1970-01-01 was a Thursday: day 0 is weekday 4 (0 = Sunday). */
const EPOCH_WEEKDAY = 4;

export interface Session {
  start: number;
  end: number;
}

function localDay(exchange: ExchangeDef, t: number): number {
  return Math.floor((t + exchange.gmtOffset * 1000) / DAY_MS);
}

function tradesOn(exchange: ExchangeDef, day: number): boolean {
  const weekday = (((day + EPOCH_WEEKDAY) % 7) + 7) % 7;
  return exchange.weekends || (weekday !== 0 && weekday !== 6);
}

/** The regular session of one local day (UTC ms), or null on a day the exchange is shut. */
export function sessionOfDay(exchange: ExchangeDef, day: number): Session | null {
  if (!tradesOn(exchange, day)) return null;
  const midnight = day * DAY_MS - exchange.gmtOffset * 1000;
  return { start: midnight + exchange.openMinute * MINUTE_MS, end: midnight + exchange.closeMinute * MINUTE_MS };
}

/** Sessions that started in [from, to], oldest first; no holidays, only weekends. */
export function sessionsBetween(exchange: ExchangeDef, from: number, to: number): Session[] {
  const sessions: Session[] = [];
  for (let day = localDay(exchange, from) - 1; day <= localDay(exchange, to); day++) {
    const session = sessionOfDay(exchange, day);
    if (session && session.start >= from && session.start <= to) sessions.push(session);
  }
  return sessions;
}

/** The session trading at t, or null. */
export function openSession(exchange: ExchangeDef, t: number): Session | null {
  const session = sessionOfDay(exchange, localDay(exchange, t));
  return session && t >= session.start && t < session.end ? session : null;
}

/** The latest session that has started by t (the current one, or the last closed one). */
export function latestSession(exchange: ExchangeDef, t: number): Session {
  for (let day = localDay(exchange, t); ; day--) {
    const session = sessionOfDay(exchange, day);
    if (session && session.start <= t) return session;
  }
}

/** When the last trade printed by t: now while open, else the close of the latest session. */
export function lastTradeTime(exchange: ExchangeDef, t: number): number {
  const session = latestSession(exchange, t);
  return Math.min(t, session.end - 1000);
}
