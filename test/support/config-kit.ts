import { randomBytes } from 'node:crypto';
import { loadAppConfig } from '../../src/config/app.config';
import { ConfigurationError } from '../../src/config/env.validation';

/** What production requires of every replica, made fresh per run so the repository ships no secret production accepts. */
export const PRODUCTION_SECRETS = {
  CURSOR_SECRET: randomBytes(48).toString('base64'),
  JWT_SECRET: randomBytes(48).toString('base64'),
  AUTH_SIWE_DOMAIN: 'portal.example.com',
};

/** The problems loadAppConfig names for `raw`; fails the test if it accepts it. */
export function configProblemsOf(raw: Record<string, string>): string[] {
  try {
    loadAppConfig(raw);
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems;
    throw error;
  }
  throw new Error('expected a configuration error');
}
