import { enableOpenApiResponseChecks, takeOpenApiViolations, writeOpenApiCheckStats } from './openapi-response-hook';

// Every e2e answer must keep the OpenAPI document its app serves (openapi-response-hook.ts); the test that
// received a breaking one fails, and answers sent outside a test (in beforeAll or afterAll) fail the file.
enableOpenApiResponseChecks();

function failOnViolations(): void {
  const found = takeOpenApiViolations();
  if (found.length) throw new Error(`${found.length} answer(s) break the served OpenAPI document:\n${found.slice(0, 20).join('\n')}`);
}

afterEach(failOnViolations);
afterAll(() => {
  writeOpenApiCheckStats(expect.getState().testPath ?? 'unknown');
  failOnViolations();
});
