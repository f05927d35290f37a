import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { ensurePortalBuilt, PortalPaths, readPortalManifest } from './portal-build';

export const PORTAL_PATHS = Symbol('PORTAL_PATHS');
export const PORTAL_INDEX = 'index.html';

export interface PortalFile {
  body: Buffer;
  contentType: string;
  cacheControl: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
/** index.html names the current bundles, so a browser asks again each time; the bundles' names change with their bytes. */
const REVALIDATE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The developer portal's built files, read once at start-up and answered from memory. From a checkout the
 * page is (re)built first when its sources changed, so `npm run demo` and the tests always serve the
 * current page; without a build (and no sources to make one) the server still starts and /portal answers 503.
 */
@Injectable()
export class PortalAssets implements OnModuleInit {
  private readonly logger = new Logger('Portal');
  private files = new Map<string, PortalFile>();

  constructor(@Inject(PORTAL_PATHS) private readonly paths: PortalPaths) {}

  async onModuleInit(): Promise<void> {
    const where = relative(process.cwd(), this.paths.outDir) || this.paths.outDir;
    try {
      if ((await ensurePortalBuilt(this.paths)) === 'built') this.logger.log(`developer portal built into ${where}`);
    } catch (error) {
      this.logger.warn(`developer portal: build failed (${error instanceof Error ? error.message : String(error)})`);
    }
    this.files = await loadBuild(this.paths.outDir);
    if (!this.built) this.logger.warn(`developer portal: no build in ${where}; /portal answers 503 until \`npm run build:portal\` has run`);
  }

  get built(): boolean {
    return this.files.has(PORTAL_INDEX);
  }

  /** A file of the build by its name; only names the build's manifest lists exist, so no path reaches the disk. */
  find(name: string): PortalFile | undefined {
    return this.files.get(name);
  }
}

async function loadBuild(outDir: string): Promise<Map<string, PortalFile>> {
  const files = new Map<string, PortalFile>();
  const manifest = await readPortalManifest(outDir);
  if (!manifest) return files;
  for (const name of manifest.files) {
    const contentType = CONTENT_TYPES[extname(name)];
    if (basename(name) !== name || !contentType) continue;
    const body = await readFile(join(outDir, name)).catch(() => undefined);
    if (!body) return new Map();
    files.set(name, { body, contentType, cacheControl: name === PORTAL_INDEX ? REVALIDATE : IMMUTABLE });
  }
  return files;
}
