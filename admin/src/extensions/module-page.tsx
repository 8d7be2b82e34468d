import { Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { modules } from './kinds.ts';
import { loadAppExtensions } from './load-extensions.ts';
import { useRegistry } from './registry.ts';

/** /admin/modules/<id>: the page of an admin extension's module, once the extensions have loaded. */
export function ExtensionModulePage() {
  const { module: id } = useParams();
  useRegistry(modules);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    void loadAppExtensions().finally(() => setLoaded(true));
  }, []);
  const module = modules.get(id);
  if (module) return <module.component />;
  if (!loaded) return <Spin size="large" style={{ display: 'block', margin: '20vh auto' }} />;
  return (
    <div data-testid="extension-module-missing">
      <Result status="404" title="404" />
    </div>
  );
}

/** Loads the admin extensions once the user is signed in; renders nothing. */
export function AppExtensionsLoader() {
  useEffect(() => {
    void loadAppExtensions();
  }, []);
  return null;
}
