import path from 'node:path';

/** Packages the admin hands an extension at run time; bundling a copy would give two Reacts on one page. */
const FROM_HOST = /^(react|react-dom|antd|@ant-design\/icons|@refinedev\/.*)(\/.*)?$/;

/**
 * Bundles an admin extension's entry (TS/TSX/JS/JSX and what it imports) into the one ES module the admin
 * imports at run time, with Vite's library build (Rolldown and Oxc: the bundler the admin itself is built
 * with, already a dependency). JSX compiles to `React.createElement` with the host's React in scope, and
 * importing React or antd is refused: they come from the host.
 */
export async function buildAppEntry(folder: string, source: string, output: string): Promise<void> {
  const { build } = await import('vite');
  const outDir = path.dirname(path.resolve(folder, output));
  await build({
    configFile: false,
    root: folder,
    logLevel: 'warn',
    publicDir: false,
    plugins: [
      {
        name: 'tessera-host-packages',
        resolveId(id) {
          if (FROM_HOST.test(id)) throw new Error(`${source} imports "${id}": an admin extension takes React, antd and the SDK from the host (its default export is a function of { React, antd, sdk }).`);
          return null;
        },
      },
    ],
    oxc: { jsx: { runtime: 'classic', pragma: 'React.createElement', pragmaFrag: 'React.Fragment' } },
    build: {
      lib: { entry: path.resolve(folder, source), formats: ['es'], fileName: () => path.basename(output) },
      outDir,
      emptyOutDir: false,
      minify: false,
      sourcemap: false,
      copyPublicDir: false,
      reportCompressedSize: false,
    },
  });
}
