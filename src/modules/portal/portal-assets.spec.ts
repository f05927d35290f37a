import { Logger } from '@nestjs/common';
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PORTAL_INDEX, PortalAssets } from './portal-assets';
import { PORTAL_MANIFEST, PortalPaths, portalPaths } from './portal-build';

describe(PortalAssets.name, () => {
  const root = portalPaths().root;
  let dir: string;
  let paths: PortalPaths;
  let warned: jest.SpyInstance;

  beforeEach(async () => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    dir = await mkdtemp(join(tmpdir(), 'portal-'));
    paths = { root, sourceDir: join(dir, 'portal'), outDir: join(dir, 'out') };
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  async function started(): Promise<PortalAssets> {
    const sut = new PortalAssets(paths);
    await sut.onModuleInit();
    return sut;
  }

  it('starts without a build or sources, and says it has nothing to serve', async () => {
    const sut = await started();

    expect(sut.built).toBe(false);
    expect(sut.find(PORTAL_INDEX)).toBeUndefined();
    expect(warned).toHaveBeenCalledWith(expect.stringContaining('npm run build:portal'));
  });

  it('builds from the sources when there is no build, and serves the bundles the page names', async () => {
    await cp(portalPaths().sourceDir, paths.sourceDir, { recursive: true });

    const sut = await started();

    const index = sut.find(PORTAL_INDEX)!;
    expect(index.cacheControl).toBe('no-cache');
    const [, script] = /src="\/portal\/([^"]+\.js)"/.exec(index.body.toString())!;
    const [, styles] = /href="\/portal\/([^"]+\.css)"/.exec(index.body.toString())!;
    expect(sut.find(script)).toMatchObject({ contentType: 'text/javascript; charset=utf-8', cacheControl: 'public, max-age=31536000, immutable' });
    expect(sut.find(styles)).toMatchObject({ contentType: 'text/css; charset=utf-8' });
  }, 30_000);

  it('rebuilds when a source changes, and not when none did', async () => {
    await cp(portalPaths().sourceDir, paths.sourceDir, { recursive: true });
    await started();
    const manifestPath = join(paths.outDir, PORTAL_MANIFEST);
    const first = await stat(manifestPath);

    await started();
    expect((await stat(manifestPath)).mtimeMs).toBe(first.mtimeMs);

    const stylesPath = join(paths.sourceDir, 'styles.css');
    await writeFile(stylesPath, `${await readFile(stylesPath, 'utf8')}\n.portal-spec-marker {\n  color: red;\n}\n`);
    const sut = await started();
    const [, styles] = /href="\/portal\/([^"]+\.css)"/.exec(sut.find(PORTAL_INDEX)!.body.toString())!;
    expect(sut.find(styles)!.body.toString()).toContain('.portal-spec-marker');
  }, 30_000);

  it('serves only the files its manifest lists, by bare name', async () => {
    await cp(portalPaths().sourceDir, paths.sourceDir, { recursive: true });
    await started();
    // A manifest naming a path outside the build (however it came to be) still reads nothing there.
    const manifestPath = join(paths.outDir, PORTAL_MANIFEST);
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
    await writeFile(manifestPath, JSON.stringify({ ...manifest, files: [...manifest.files, '../portal/index.html'] }));
    await rm(paths.sourceDir, { recursive: true });

    const sut = await started();

    expect(sut.built).toBe(true);
    expect(sut.find('../portal/index.html')).toBeUndefined();
    expect(sut.find('package.json')).toBeUndefined();
  }, 30_000);
});
