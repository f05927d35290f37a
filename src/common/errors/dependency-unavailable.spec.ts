import { isDependencyUnavailable } from './dependency-unavailable';

describe(isDependencyUnavailable.name, () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    [
      'a query whose connection died (TypeORM wraps the driver error)',
      Object.assign(new Error('Query failed'), { driverError: new Error('Connection terminated unexpectedly') }),
    ],
    ['a server shutting down', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a connection-class SQLSTATE', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['a pool that cannot connect in time', new Error('timeout exceeded when trying to connect')],
    ['a Redis command that timed out', new Error('Command timed out')],
    ['a Redis connection closed', new Error('Connection is closed.')],
  ])('recognises %s', (_what, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it.each([
    ['a constraint violation', Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' })],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a Lua error', new Error('ERR user_script:1: attempt to compare nil with number')],
    ['no error at all', undefined],
  ])('does not take %s for an outage', (_what, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });
});
