import { Controller, Get } from '@nestjs/common';
import { Enveloped } from '../decorators/enveloped.decorator';
import { JsonText } from './json-text';

const MIDS = { mids: { BTC: '96666.5', 'xyz:TSLA': '412.3', 'ÉCU€': '1.25' } };

@Enveloped()
@Controller('t')
class SampleController {
  readonly cached = JsonText.of(MIDS);

  @Get('text')
  text() {
    return this.cached;
  }

  @Get('object')
  object() {
    return MIDS;
  }
}

describe(JsonText.name, () => {
  const sut = new SampleController();

  it('answers the bytes of the very envelope an object answer would serialise to', async () => {
    const bytes = (await sut.text()) as unknown as Buffer;
    const object = await sut.object();
    expect(Buffer.isBuffer(bytes)).toBe(true);
    const text = bytes.toString('utf8');
    expect(text).toBe(JSON.stringify(object));
    expect(JSON.parse(text)).toEqual({ code: '0', msg: 'success', data: MIDS });
  });

  it('answers every request for one value with the same bytes', async () => {
    const first = (await sut.text()) as unknown as Buffer;
    const second = (await sut.text()) as unknown as Buffer;
    expect(second).toBe(first);
  });

  it('splices text serialised before into an object, as serialising the whole object would', () => {
    const rows = [
      { address: '0xabc', value: '1.5' },
      { address: '0xdef', value: null },
    ];
    const head = { market: 'perp', coin: 'xyz:TSLA' };
    const tail = { page: 2, hasMore: false, nextCursor: null, updatedAt: '2026-11-22T02:00:00.000Z' };

    const spliced = JsonText.spliced(head, 'items', JSON.stringify(rows), tail);

    expect(spliced.json).toBe(JSON.stringify({ ...head, items: rows, ...tail }));
  });

  it('splices with nothing before or after the field', () => {
    expect(JsonText.spliced({}, 'items', '[1,2]', {}).json).toBe('{"items":[1,2]}');
    expect(JSON.parse(JsonText.spliced({ a: 'x"y' }, 'b', '{"c":[]}', {}).json)).toEqual({ a: 'x"y', b: { c: [] } });
  });
});
