import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';
import { assertWithinOffsetCap, offsetOf } from './offset-cap';

/** The contract error: VALIDATION_ERROR with a message naming the field. */
const validationErrorOn = (field: string) =>
  expect.objectContaining({ code: ErrorCode.VALIDATION_ERROR, message: expect.stringMatching(new RegExp(`^${field}: `)) });

describe('offset cap', () => {
  const sut = assertWithinOffsetCap;

  it.each([
    [1, 100],
    [100, 100],
    [3334, 3],
    [10_000, 1],
  ])('accepts page %i with limit %i: its first row is below the cap', (page, limit) => {
    expect(() => sut(page, limit)).not.toThrow();
  });

  it.each([
    [101, 100],
    [3335, 3],
    [10_001, 1],
    [1_000_000, 500],
  ])('rejects page %i with limit %i: (page - 1) × limit reaches 10,000', (page, limit) => {
    expect(() => sut(page, limit)).toThrow(AppError);
    expect(() => sut(page, limit)).toThrow(validationErrorOn('page'));
    expect(() => sut(page, limit)).toThrow(/capped at 10000 rows/);
  });

  it('tells the client the last reachable page', () => {
    expect(() => sut(101, 100)).toThrow(/last page is 100/);
  });

  it.each([[0], [-1], [1.5], [Number.NaN]])('rejects page %p instead of letting it slip past the comparison', (page) => {
    expect(() => sut(page, 10)).toThrow(validationErrorOn('page'));
  });

  it('rejects a non-positive limit naming the limit field', () => {
    expect(() => sut(1, 0)).toThrow(validationErrorOn('limit'));
  });

  it('computes the offset of a 1-based page', () => {
    expect(offsetOf(1, 50)).toBe(0);
    expect(offsetOf(3, 50)).toBe(100);
  });
});
