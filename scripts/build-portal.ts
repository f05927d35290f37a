// `npm run build:portal`: bundles the developer portal (portal/) into dist/portal, which the server serves at
// /portal. `npm run build` runs it after `nest build`; a server started from a checkout rebuilds it by itself
// when its sources changed (PortalAssets), so this is for images and for checking a build by hand.
import { relative } from 'node:path';
import { buildPortal, portalPaths } from '../src/modules/portal/portal-build';

async function main() {
  const paths = portalPaths();
  const manifest = await buildPortal(paths);
  console.log(`portal built into ${relative(process.cwd(), paths.outDir) || '.'}: ${manifest.files.join(', ')}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
