import { AppError } from '../errors/app-error';
import { nulCharacterError } from './nul-character';

const NUL = '\u0000';
const PROBLEM = 'must not contain a NUL character (U+0000)';

describe(nulCharacterError.name, () => {
  it('names a query parameter, a path parameter and a parameter read alone by their names', () => {
    expect(nulCharacterError({ coin: 'BTC', q: `a${NUL}` }, { type: 'query' })?.message).toBe(`q: ${PROBLEM}`);
    expect(nulCharacterError(`BTC${NUL}`, { type: 'param', data: 'symbol' })?.message).toBe(`symbol: ${PROBLEM}`);
    expect(nulCharacterError(`BTC${NUL}`, { type: 'query', data: 'coin' })?.message).toBe(`coin: ${PROBLEM}`);
  });

  it('names a nested body value by its dotted path, and a repeated query value by its parameter', () => {
    const body = { name: 'desk', addresses: [{ address: '0x1', tags: ['ok', `x${NUL}`] }] };
    expect(nulCharacterError(body, { type: 'body' })?.message).toBe(`addresses.0.tags.1: ${PROBLEM}`);
    expect(nulCharacterError({ coin: ['BTC', `ETH${NUL}`] }, { type: 'query' })?.message).toBe(`coin.1: ${PROBLEM}`);
  });

  it('names the object holding a name with a NUL, or the whole value at the top', () => {
    expect(nulCharacterError({ [`na${NUL}me`]: 'x' }, { type: 'body' })?.message).toBe(`body: a name ${PROBLEM}`);
    expect(nulCharacterError({ style: { [`k${NUL}`]: 'x' } }, { type: 'body' })?.message).toBe(`style: a name ${PROBLEM}`);
    expect(nulCharacterError({ [`co${NUL}in`]: 'x' }, { type: 'query' })?.message).toBe(`query: a name ${PROBLEM}`);
    expect(nulCharacterError(`${NUL}`, { type: 'body' })?.message).toBe(`body: ${PROBLEM}`);
  });

  it('is a VALIDATION_ERROR', () => {
    expect(nulCharacterError({ q: NUL }, { type: 'query' })).toEqual(AppError.validation('q', PROBLEM));
  });

  it('passes values without one, numbers and nulls included, and never looks at custom parameters', () => {
    expect(nulCharacterError({ coin: 'BTC', limit: 5, cursor: null, tags: ['a', 'b'] }, { type: 'query' })).toBeUndefined();
    expect(nulCharacterError('BTC', { type: 'param', data: 'symbol' })).toBeUndefined();
    expect(nulCharacterError({ wallet: `0x${NUL}` }, { type: 'custom' })).toBeUndefined();
  });
});
