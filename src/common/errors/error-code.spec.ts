import { ERROR_STATUS, ErrorCode, errorCodeForStatus } from './error-code';

describe('ERROR_STATUS', () => {
  it.each(Object.values(ErrorCode))('gives %s an HTTP error status', (code) => {
    const status = ERROR_STATUS[code];

    expect(Number.isInteger(status)).toBe(true);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(600);
  });

  it('has an entry for every code and nothing else', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual(Object.values(ErrorCode).sort());
  });
});

describe(errorCodeForStatus.name, () => {
  const sut = errorCodeForStatus;

  it.each([
    [400, ErrorCode.VALIDATION_ERROR],
    [401, ErrorCode.UNAUTHORIZED],
    [403, ErrorCode.FORBIDDEN],
    [404, ErrorCode.NOT_FOUND],
    [413, ErrorCode.VALIDATION_ERROR],
    [429, ErrorCode.RATE_LIMITED],
    [500, ErrorCode.INTERNAL_ERROR],
    [502, ErrorCode.INTERNAL_ERROR],
    [503, ErrorCode.SERVICE_UNAVAILABLE],
  ])('maps status %i to %s', (status, code) => {
    expect(sut(status)).toBe(code);
  });

  it.each([400, 401, 403, 404, 429, 500, 503])('picks a code that travels back with status %i', (status) => {
    expect(ERROR_STATUS[sut(status)]).toBe(status);
  });
});
