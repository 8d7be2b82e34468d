import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The npm name Tessera is to be published under. `tessera` itself belongs to an unrelated package (a map
 * tile server), which is what `npx tessera` fetched in a folder without Tessera installed; `tessera-cms`
 * was free when chosen (docs/cli.md, "The project's package.json"). The repository's own package.json keeps
 * the name `tessera` while it is private and unpublished: npm links a `file:` dependency under the name the
 * depending project gives it, whatever the linked package.json says.
 */
export const PUBLISHED_NAME = 'tessera-cms';

/** The folder of the Tessera that is running: the repository checkout, or an installed package. */
export const TESSERA_ROOT = realpathSync(fileURLToPath(new URL('..', import.meta.url)));

/**
 * How a project depends on this Tessera: a `file:` link to this checkout while Tessera is unpublished, so
 * the project runs exactly the Tessera that created it; the published version when this Tessera was itself
 * installed from the registry (it then lives in a node_modules folder).
 */
export function tesseraDependency(root = TESSERA_ROOT): string {
  if (root.split(path.sep).includes('node_modules')) {
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    return `^${version}`;
  }
  return `file:${root}`;
}

/** A valid npm package name from a project name: `My Blog!` → `my-blog`. */
export function packageNameFor(projectName: string): string {
  const name = projectName
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, 214);
  return name || 'tessera-project';
}

/** The scripts a project gets: `npm start` serves, `npm run tessera -- <command>` runs any other command. */
const SCRIPTS = { start: 'tessera start', tessera: 'tessera' };

/** The package.json of a new project: private, its Tessera dependency and the scripts. */
export function renderPackageJson(projectName: string, dependency = tesseraDependency()): string {
  const manifest = { name: packageNameFor(projectName), private: true, scripts: SCRIPTS, dependencies: { [PUBLISHED_NAME]: dependency } };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * npm's settings for the project. npm checks `engines` against the Node it runs on, which may be older than
 * the Node 24 Tessera brings and runs on, and would warn EBADENGINE for each such package: show errors only
 * (as this repository's .npmrc does), and skip the audit and funding calls an install would make.
 */
export const PROJECT_NPMRC = ['# npm on an older system Node would warn EBADENGINE for Tessera, which runs on its own Node 24.', 'loglevel=error', 'audit=false', 'fund=false', ''].join('\n');

const PROJECT_GITIGNORE = ['node_modules/', 'data/', '.env', ''].join('\n');

/** What writeProjectPackage did with package.json, and the command that then starts the project. */
export interface ProjectPackage {
  packageJson: 'created' | 'updated' | 'kept';
  /** Run in the project folder: installs this Tessera, then starts it. */
  startCommand: string;
}

/**
 * Gives `target` what it needs to run this Tessera with `npm install && npm start`: a package.json (an
 * existing one gains the dependency and the scripts it lacks; nothing it has is changed), a .npmrc and a
 * .gitignore when missing. Tessera's own checkout is left alone (it is no project of itself).
 */
export function writeProjectPackage(target: string, projectName: string): ProjectPackage {
  const file = path.join(target, 'package.json');
  if (realpathSync(target) === TESSERA_ROOT) return { packageJson: 'kept', startCommand: 'npm install && npm start' };
  let packageJson: ProjectPackage['packageJson'] = 'created';
  let start = SCRIPTS.start;
  if (existsSync(file)) {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { scripts?: Record<string, string>; dependencies?: Record<string, string> };
    const dependencies = manifest.dependencies ?? {};
    const scripts = manifest.scripts ?? {};
    const missing = !Object.hasOwn(dependencies, PUBLISHED_NAME) || Object.keys(SCRIPTS).some((name) => !Object.hasOwn(scripts, name));
    if (missing) {
      manifest.dependencies = { ...dependencies, ...(Object.hasOwn(dependencies, PUBLISHED_NAME) ? {} : { [PUBLISHED_NAME]: tesseraDependency() }) };
      manifest.scripts = { ...SCRIPTS, ...scripts };
      writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    }
    packageJson = missing ? 'updated' : 'kept';
    start = manifest.scripts?.start ?? SCRIPTS.start;
  } else {
    writeFileSync(file, renderPackageJson(projectName));
  }
  if (!existsSync(path.join(target, '.npmrc'))) writeFileSync(path.join(target, '.npmrc'), PROJECT_NPMRC);
  if (!existsSync(path.join(target, '.gitignore'))) writeFileSync(path.join(target, '.gitignore'), PROJECT_GITIGNORE);
  // A project whose own `start` script does something else starts Tessera through its bin, which npx finds installed.
  return { packageJson, startCommand: start === SCRIPTS.start ? 'npm install && npm start' : 'npm install && npx tessera start' };
}
