import { useEffect } from 'react';
import { apiData } from '../providers/http-client.ts';

/** Applies `settings.custom_css` of the project once someone is signed in (it is not public). */
export function CustomCss() {
  useEffect(() => {
    let style: HTMLStyleElement | null = null;
    void apiData<{ custom_css: string | null } | null>('/settings', { query: { fields: 'custom_css' } })
      .then((settings) => {
        if (!settings?.custom_css) return;
        style = document.createElement('style');
        style.dataset.tessera = 'custom-css';
        style.textContent = settings.custom_css;
        document.head.appendChild(style);
      })
      .catch(() => undefined);
    return () => style?.remove();
  }, []);
  return null;
}
