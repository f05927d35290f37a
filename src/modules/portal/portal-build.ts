import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';

/** Where the developer portal's sources are and where its build goes. */
export interface PortalPaths {
  /** `portal/` at the project root; absent where only the build ships (the Docker image). */
  sourceDir: string;
  /** Inside dist/, so the image (which copies dist/) carries it; `nest build` empties it, a start rebuilds it. */
  outDir: string;
  /** The project root, where node_modules is. */
  root: string;
}

/** What a build wrote; the manifest is written last, so its presence means a complete build. */
export interface PortalManifest {
  /** Of the sources and the bundled packages' versions: a build is stale when this differs. */
  sourceHash: string;
  /** Every file of the build, index.html included, by its name under outDir. */
  files: string[];
}

export const PORTAL_MANIFEST = 'manifest.json';
/** Changes whenever the recipe below changes, so existing builds count as stale. */
const BUILD_RECIPE = 'esbuild:esm:es2020:minify:v1';
const BUNDLED_PACKAGES = ['chart.js', 'mipd', 'esbuild'];
/** The page asks for its assets by these absolute paths, so /portal and /portal/ both load them. */
const ASSET_BASE = '/portal/';
const SCRIPT_SOURCE = 'src="./src/main.ts"';
const STYLES_SOURCE = 'href="./styles.css"';

export function portalPaths(root = projectRoot(__dirname)): PortalPaths {
  return { root, sourceDir: join(root, 'portal'), outDir: join(root, 'dist', 'portal') };
}

/** The nearest folder above `from` with a package.json: the repository, or /app in the image. */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

export async function readPortalManifest(outDir: string): Promise<PortalManifest | undefined> {
  try {
    return JSON.parse(await readFile(join(outDir, PORTAL_MANIFEST), 'utf8')) as PortalManifest;
  } catch {
    return undefined;
  }
}

/** The hash of every source file and the bundled packages' versions; undefined when there are no sources. */
export async function portalSourceHash({ sourceDir, root }: PortalPaths): Promise<string | undefined> {
  if (!existsSync(sourceDir)) return undefined;
  const hash = createHash('sha256').update(BUILD_RECIPE);
  for (const file of await listFiles(sourceDir)) {
    hash.update(`\0${relative(sourceDir, file)}\0`).update(await readFile(file));
  }
  for (const name of BUNDLED_PACKAGES) {
    const manifest = await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8').catch(() => '{}');
    hash.update(`\0${name}@${(JSON.parse(manifest) as { version?: string }).version ?? 'missing'}`);
  }
  return hash.digest('hex');
}

export type EnsureResult = 'current' | 'built' | 'no-sources';

/** Builds the page when its build is missing or older than its sources; a checkout without sources keeps what it has. */
export async function ensurePortalBuilt(paths: PortalPaths = portalPaths()): Promise<EnsureResult> {
  const sourceHash = await portalSourceHash(paths);
  if (sourceHash === undefined) return 'no-sources';
  if ((await readPortalManifest(paths.outDir))?.sourceHash === sourceHash) return 'current';
  await buildPortal(paths, sourceHash);
  return 'built';
}

/**
 * One minified bundle for the script and one for the styles, named by content hash (cached for a year),
 * and index.html pointing at them (never cached). Safe to run beside another build of the same sources:
 * hashed names carry identical bytes, and index.html and the manifest are replaced by rename.
 */
export async function buildPortal(paths: PortalPaths = portalPaths(), sourceHash?: string): Promise<PortalManifest> {
  // Loaded here only: esbuild is a development dependency, absent from the production image.
  const esbuild = await import('esbuild');
  const { sourceDir, outDir } = paths;
  const result = await esbuild.build({
    absWorkingDir: paths.root,
    entryPoints: [
      { in: join(sourceDir, 'src', 'main.ts'), out: 'app' },
      { in: join(sourceDir, 'styles.css'), out: 'styles' },
    ],
    outdir: outDir,
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    tsconfig: join(sourceDir, 'tsconfig.json'),
    // The bundled packages come from the project's node_modules wherever the sources are.
    nodePaths: [join(paths.root, 'node_modules')],
    write: false,
    logLevel: 'silent',
  });
  const outputs = result.outputFiles.map((file) => ({ name: basename(file.path), contents: file.contents }));
  const script = outputs.find((file) => file.name.endsWith('.js'));
  const styles = outputs.find((file) => file.name.endsWith('.css'));
  if (!script || !styles) throw new Error('portal build: esbuild produced no script or no stylesheet');
  const html = rewriteIndex(await readFile(join(sourceDir, 'index.html'), 'utf8'), script.name, styles.name);

  await mkdir(outDir, { recursive: true });
  for (const file of outputs) await writeFile(join(outDir, file.name), file.contents);
  await writeAtomically(join(outDir, 'index.html'), html);
  const manifest: PortalManifest = {
    sourceHash: sourceHash ?? (await portalSourceHash(paths)) ?? '',
    files: ['index.html', ...outputs.map((file) => file.name)],
  };
  await writeAtomically(join(outDir, PORTAL_MANIFEST), JSON.stringify(manifest, null, 2));
  await removeOthers(outDir, new Set([...manifest.files, PORTAL_MANIFEST]));
  return manifest;
}

function rewriteIndex(html: string, scriptName: string, stylesName: string): string {
  if (!html.includes(SCRIPT_SOURCE) || !html.includes(STYLES_SOURCE)) {
    throw new Error(`portal build: index.html must reference ${SCRIPT_SOURCE} and ${STYLES_SOURCE}`);
  }
  return html.replace(SCRIPT_SOURCE, `src="${ASSET_BASE}${scriptName}"`).replace(STYLES_SOURCE, `href="${ASSET_BASE}${stylesName}"`);
}

async function writeAtomically(path: string, contents: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, path);
}

/** Bundles of earlier builds; a server still holding them has read them into memory already. */
async function removeOthers(outDir: string, keep: ReadonlySet<string>): Promise<void> {
  for (const name of await readdir(outDir)) {
    if (!keep.has(name) && !name.endsWith('.tmp')) await rm(join(outDir, name), { force: true, recursive: true });
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
