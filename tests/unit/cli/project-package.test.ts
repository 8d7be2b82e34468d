import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageNameFor, PUBLISHED_NAME, TESSERA_ROOT, tesseraDependency, writeProjectPackage } from '../../../cli/project-package.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'tessera-project-package-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the package.json init gives a project', () => {
  it('names the package after the project, as npm allows', () => {
    expect(packageNameFor('My Blog!')).toBe('my-blog');
    expect(packageNameFor('  __ ')).toBe('tessera-project');
  });

  it('links this checkout, or asks for the published version when Tessera was installed from the registry', () => {
    expect(tesseraDependency()).toBe(`file:${TESSERA_ROOT}`);
    const installed = path.join(dir, 'node_modules', PUBLISHED_NAME);
    mkdirSync(installed, { recursive: true });
    writeFileSync(path.join(installed, 'package.json'), JSON.stringify({ name: PUBLISHED_NAME, version: '1.4.2' }));
    expect(tesseraDependency(installed)).toBe('^1.4.2');
  });

  it('adds the dependency and the missing scripts to an existing package.json, changing nothing it has', () => {
    const project = path.join(dir, 'existing');
    mkdirSync(project);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'site', scripts: { start: 'vite' }, dependencies: { vite: '8.0.0' } }));
    expect(writeProjectPackage(project, 'Site')).toEqual({ packageJson: 'updated', startCommand: 'npm install && npx tessera start' });
    expect(JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'))).toEqual({
      name: 'site',
      scripts: { start: 'vite', tessera: 'tessera' },
      dependencies: { vite: '8.0.0', [PUBLISHED_NAME]: `file:${TESSERA_ROOT}` },
    });
    expect(writeProjectPackage(project, 'Site').packageJson).toBe('kept');
  });

  it('leaves Tessera\'s own checkout alone', () => {
    const before = readFileSync(path.join(TESSERA_ROOT, 'package.json'), 'utf8');
    expect(writeProjectPackage(TESSERA_ROOT, 'Tessera').packageJson).toBe('kept');
    expect(readFileSync(path.join(TESSERA_ROOT, 'package.json'), 'utf8')).toBe(before);
  });
});
