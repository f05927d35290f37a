import { CsvSyntaxError, readCsvRecords } from './csv-records';

const fieldsOf = (text: string) => readCsvRecords(text).map((record) => record.fields);

describe(readCsvRecords.name, () => {
  it('splits LF and CRLF lines, with or without a final line end', () => {
    expect(fieldsOf('a,b\n1,2\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(fieldsOf('a,b\r\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('keeps empty fields, a trailing one included', () => {
    expect(fieldsOf('a,,c\n,\n1,2,')).toEqual([
      ['a', '', 'c'],
      ['', ''],
      ['1', '2', ''],
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks, and numbers records by their first line', () => {
    const sut = readCsvRecords('coin,note\n"xyz:TSLA","a, ""quoted""\nnote"\nBTC,""\n');
    expect(sut).toEqual([
      { fields: ['coin', 'note'], line: 1 },
      { fields: ['xyz:TSLA', 'a, "quoted"\nnote'], line: 2 },
      { fields: ['BTC', ''], line: 4 },
    ]);
  });

  it('ignores a byte-order mark and reports a blank line as one empty field', () => {
    expect(fieldsOf('\ufefftime,user\n\n1,2\n')).toEqual([['time', 'user'], [''], ['1', '2']]);
  });

  it('refuses a quote inside an unquoted field, naming the line', () => {
    expect(() => readCsvRecords('a,b\n1,2"x\n')).toThrow(new CsvSyntaxError(2, 'quote inside an unquoted field'));
  });

  it('refuses text after a closing quote and a quote never closed', () => {
    expect(() => readCsvRecords('"a"b,c\n')).toThrow('line 1: text after a closing quote');
    expect(() => readCsvRecords('a,b\n1,"2\n3,4\n')).toThrow('line 2: quoted field not closed');
  });
});
