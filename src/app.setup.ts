import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_SECURITY } from './common/decorators/public-endpoint.decorator';
import { RememberingValidationPipe } from './common/validation/remembering-validation.pipe';
import { validationExceptionFactory } from './common/validation/validation-exception.factory';

/** Everything the server and the e2e tests both need on top of the module graph. */
export function configureApp(app: INestApplication): INestApplication {
  // Leave through process.exit once the hooks ran, not by re-raising the signal: a process a signal ends
  // emits no 'exit', and that is where the embedded database's lock file is removed (embedded-lock.ts).
  app.enableShutdownHooks([], { useProcessExit: true });
  app.useGlobalPipes(
    new RememberingValidationPipe({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: true,
      stopAtFirstError: true,
      exceptionFactory: validationExceptionFactory,
    }),
  );
  setupSwagger(app);
  return app;
}

function setupSwagger(app: INestApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Market Data & Analytics API')
      .setDescription(
        [
          'Public Data API under `/api/public/v1` (API key in `x-api-key`, per-key rate limit, credits on paid tiers). ',
          'The wallet-session backend API of the contract (`/api/v1`) is not built yet. Every response is the envelope `{code, msg, data}`; ',
          'errors carry a contract code, `data: null`, and a `msg` that names the offending field. ',
          'Decisions where the contract is silent are listed in docs/decisions.md.',
        ].join(''),
      )
      .setVersion('1')
      .addApiKey({ type: 'apiKey', name: 'x-api-key', in: 'header', description: 'Your API key' }, API_KEY_SECURITY)
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', swaggerOptions: { persistAuthorization: true } });
}
