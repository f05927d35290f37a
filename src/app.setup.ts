import { INestApplication, Logger } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_SECURITY } from './modules/access/public-endpoint.decorator';
import { WALLET_SESSION_SECURITY } from './modules/access/backend-api.decorator';
import { createAppValidationPipe } from './common/validation/remembering-validation.pipe';
import { MAX_BODY_DEPTH } from './common/http/body-depth';

/** The signals that stop the service; anything else (SIGHUP included) never does. */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** Everything the server and the e2e tests both need on top of the module graph. */
export function configureApp(app: INestApplication): INestApplication {
  // Leave through process.exit once the hooks ran, not by re-raising the signal: a process a signal ends
  // emits no 'exit', and that is where the embedded database's lock file is removed (embedded-lock.ts).
  // Only these two: an empty list would make every signal, SIGHUP included, a quiet stop.
  app.enableShutdownHooks([...STOP_SIGNALS], { useProcessExit: true });
  app.useGlobalPipes(createAppValidationPipe());
  setupSwagger(app);
  return app;
}

const servedDocuments = new WeakMap<INestApplication, OpenAPIObject>();

function setupSwagger(app: INestApplication): void {
  const document = createOpenApiDocument(app);
  servedDocuments.set(app, document);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', swaggerOptions: { persistAuthorization: true } });
}

/** The document this app serves at /docs-json (the e2e suite checks every answer against it without asking for it). */
export function servedOpenApiDocument(app: INestApplication): OpenAPIObject | undefined {
  return servedDocuments.get(app);
}

/** The OpenAPI document served at /docs-json; scripts/openapi-lint.ts lints the same one. */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  return SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Market Data & Analytics API')
      .setDescription(
        [
          'Public Data API under `/api/public/v1` (API key in `x-api-key`, per-key rate limit, credits on paid tiers). ',
          'Backend API under `/api/v1` (tags `Backend: ...`): a wallet signs a Sign-In with Ethereum challenge (login, then sign-message) ',
          'for a session token sent as `Authorization: Bearer <token>`; it manages the wallet’s API keys and reads its account and usage, ',
          'and can never move funds, place orders or approve builder fees. The developer portal at `/portal` uses it. ',
          'Every response is the envelope `{code, msg, data}`; ',
          'errors carry a contract code, `data: null`, and a `msg` that names the offending field. ',
          'A NUL character (U+0000) anywhere in a query, path or body value (or name) is 400 `VALIDATION_ERROR` naming it, ',
          `and so is a JSON body nested deeper than ${MAX_BODY_DEPTH} levels of objects and arrays (naming \`body\`). `,
          'Decisions where the contract is silent are listed in docs/decisions.md.',
        ].join(''),
      )
      .setVersion('1')
      .setLicense('MIT', 'https://opensource.org/license/mit')
      // Paths are relative to the host serving this document (the OpenAPI default, made explicit).
      .addServer('/')
      .addApiKey({ type: 'apiKey', name: 'x-api-key', in: 'header', description: 'Your API key' }, API_KEY_SECURITY)
      .addBearerAuth(
        { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Session token from POST /api/v1/auth/sign-message or /refresh' },
        WALLET_SESSION_SECURITY,
      )
      .build(),
  );
}

/**
 * For a process that serves (the server, the demo), after configureApp: says which signal stops it, in one
 * line before the shutdown hooks run, and keeps SIGHUP from stopping it (a closed terminal or an ssh
 * session ending must not take the service down, and there is nothing to reload). Not in configureApp:
 * tests create many apps in one process and would pile these listeners up.
 */
export function handleProcessSignals(logger = new Logger('Lifecycle')): void {
  for (const signal of STOP_SIGNALS) {
    // Prepended so the line comes before anything the shutdown hooks print.
    process.prependOnceListener(signal, () => logger.log(`${signal} received: stopping (a second one is ignored while stopping)`));
  }
  process.on('SIGHUP', () => logger.log('SIGHUP ignored: nothing to reload; stop with SIGTERM or SIGINT'));
}
