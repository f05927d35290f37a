import { Controller, Get } from '@nestjs/common';
import { Enveloped } from '../decorators/enveloped.decorator';
import { JsonText } from './json-text';

const MIDS = { mids: { BTC: '96666.5', 'xyz:TSLA': '412.3' } };

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

  it('answers the very envelope an object answer would serialise to', async () => {
    const text = (await sut.text()) as unknown as string;
    const object = await sut.object();
    expect(typeof text).toBe('string');
    expect(text).toBe(JSON.stringify(object));
    expect(JSON.parse(text)).toEqual({ code: '0', msg: 'success', data: MIDS });
  });

  it('builds the envelope text once per value', async () => {
    const first = (await sut.text()) as unknown as string;
    const spy = jest.spyOn(JSON, 'stringify');
    const second = (await sut.text()) as unknown as string;
    expect(second).toBe(first);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});
