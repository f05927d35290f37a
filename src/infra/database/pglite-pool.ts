import { EventEmitter } from 'node:events';
import { PGliteDriver } from 'typeorm-pglite';

type PGliteOptions = ConstructorParameters<typeof PGliteDriver>[0];
type PGlitePool = InstanceType<PGliteDriver['driver']['Pool']>;
/** What TypeORM's postgres driver takes as its `driver` option: a module with a pg-like Pool. */
interface DriverModule {
  Pool: new () => EventEmitter;
}

/**
 * typeorm-pglite's driver module with one change: each checkout gets a client of its own. Its pool hands
 * itself out as every connection, so each query runner TypeORM holds adds its 'error' listener to that one
 * emitter, and an eleventh concurrent runner (jobs and requests on the embedded database) tripped Node's
 * MaxListenersExceededWarning. With a client per checkout, as pg's pool has, each runner's listener lives
 * and goes with its own client; queries still go, one at a time, to the one PGlite instance.
 */
export function pgliteDriverModule(options: PGliteOptions): DriverModule {
  const { Pool } = new PGliteDriver(options).driver;
  return {
    Pool: class extends EventEmitter {
      private readonly shared: PGlitePool = new Pool();

      connect(callback: (error: unknown, client: PGliteCheckout | null, done: () => void) => void): Promise<void> {
        return this.shared.connect((error, _shared, done) => callback(error, error ? null : new PGliteCheckout(this.shared), done as () => void));
      }

      query(...args: Parameters<PGlitePool['query']>): ReturnType<PGlitePool['query']> {
        return this.shared.query(...args);
      }

      end(callback: (error: unknown) => void): void {
        this.shared.end(callback);
      }
    },
  };
}

/** What TypeORM's query runner uses of a connection: query, and the emitter it listens to for errors. */
class PGliteCheckout extends EventEmitter {
  constructor(private readonly pool: PGlitePool) {
    super();
  }

  query(...args: Parameters<PGlitePool['query']>): ReturnType<PGlitePool['query']> {
    return this.pool.query(...args);
  }
}
