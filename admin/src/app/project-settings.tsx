import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { apiData } from '../providers/http-client.ts';

/** The public project settings of `/server/info` (name, brand colour, logo …). */
export interface ProjectInfo {
  project_name: string | null;
  project_descriptor: string | null;
  project_url: string | null;
  project_color: string | null;
  project_logo: string | null;
  public_note: string | null;
  default_language: string | null;
  default_appearance: 'auto' | 'light' | 'dark' | null;
  /** Sign-in pages: the image in place of the logo, the page's background image, the browser tab's icon. */
  public_foreground: string | null;
  public_background: string | null;
  public_favicon: string | null;
  /** The project's IANA time zone (PROJECT_TIME_ZONE): Insights buckets and dates are shown in it. */
  time_zone?: string | null;
}

/** Tessera's purple: the colour when the project has none (or an invalid one). */
export const DEFAULT_BRAND_COLOR = '#6644FF';

const EMPTY: ProjectInfo = {
  project_name: null,
  project_descriptor: null,
  project_url: null,
  project_color: null,
  project_logo: null,
  public_note: null,
  default_language: null,
  default_appearance: null,
  public_foreground: null,
  public_background: null,
  public_favicon: null,
};

interface ProjectContextValue {
  project: ProjectInfo;
  loaded: boolean;
  /** Re-reads the settings (after the settings screen saves). */
  reload(): Promise<void>;
}

const ProjectContext = createContext<ProjectContextValue>({ project: EMPTY, loaded: false, reload: async () => {} });

/** A `#rgb`/`#rrggbb` colour, or the default brand colour. */
export function brandColor(value: string | null | undefined): string {
  return value && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value) ? value : DEFAULT_BRAND_COLOR;
}

/**
 * The URL of a file shown as an image (the project logo, an avatar). With the file's `modified_on` the URL
 * names that version and the browser keeps it without asking (a new version is a new URL); without it the
 * browser revalidates on every use (docs/files.md, "Caching").
 */
export function assetUrl(fileId: string, params: Record<string, string | number> = {}, version?: string | null): string {
  const entries = Object.entries(params).map(([key, value]) => [key, String(value)]);
  if (version) entries.push(['modified', version]);
  const query = new URLSearchParams(entries).toString();
  return `/assets/${encodeURIComponent(fileId)}${query ? `?${query}` : ''}`;
}

/** The project's favicon (settings.public_favicon) on every page of the admin, signed in or not. */
function useFavicon(fileId: string | null) {
  useEffect(() => {
    if (!fileId) return;
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.append(link);
    }
    const previous = link.getAttribute('href');
    link.href = assetUrl(fileId);
    return () => {
      if (previous === null) link.removeAttribute('href');
      else link.setAttribute('href', previous);
    };
  }, [fileId]);
}

/** Loads `/server/info` once for the whole app (the sign-in page needs it before anyone signs in). */
export function ProjectProvider({ children }: { children: ReactNode }) {
  const [project, setProject] = useState<ProjectInfo>(EMPTY);
  const [loaded, setLoaded] = useState(false);
  const reload = useCallback(async () => {
    try {
      const info = await apiData<{ project: ProjectInfo }>('/server/info');
      setProject({ ...EMPTY, ...info?.project });
    } catch {
      // The API is unreachable: keep the defaults; requests will show their own errors.
    } finally {
      setLoaded(true);
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  useFavicon(project.public_favicon);
  return <ProjectContext value={{ project, loaded, reload }}>{children}</ProjectContext>;
}

/** The project settings and a way to re-read them. */
export function useProject(): ProjectContextValue {
  return useContext(ProjectContext);
}
