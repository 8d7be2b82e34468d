import type { Branding } from '../../mail/branding.ts';

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A string of HTML that is already safe; everything else interpolated with `html` is escaped. */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

/** Template tag: interpolated values are escaped unless they are SafeHtml (or arrays of it). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(value);
}

/** A hidden form field. */
export function hidden(name: string, value: string): SafeHtml {
  return html`<input type="hidden" name="${name}" value="${value}">`;
}

const STYLE = `
*{box-sizing:border-box}button .icon{vertical-align:-.125em}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
background:#f4f5f7;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933}
.card{background:#fff;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.08);padding:32px;width:100%;max-width:380px;
border-top:4px solid var(--brand)}.logo{display:block;max-height:56px;max-width:200px;margin:0 auto 16px}
h1{font-size:1.3rem;margin:0 0 16px;text-align:center}p{margin:0 0 12px;text-align:center}
form{margin:0 0 16px}label{display:block;font-size:.9rem;margin:8px 0 4px}
input[type=email],input[type=password],input[type=text]{width:100%;padding:10px;border:1px solid #cbd2d9;border-radius:6px;font:inherit}
button,.button{display:block;width:100%;margin-top:12px;padding:10px;border:0;border-radius:6px;background:var(--brand);
color:#fff;font:inherit;font-weight:600;cursor:pointer;text-align:center;text-decoration:none}
.separator{display:flex;align-items:center;gap:8px;color:#7b8794;font-size:.85rem;margin:8px 0 16px}
.separator:before,.separator:after{content:"";flex:1;border-top:1px solid #e4e7eb}.error{color:#b42318}
body.backdrop{background-size:cover;background-position:center}.layout{display:flex;align-items:center;gap:32px;padding:16px}
.foreground{display:block;max-width:320px;max-height:60vh}.descriptor{margin:-8px 0 16px;color:#52606d;font-size:.9rem}
.project{margin:16px 0 0;font-size:.85rem}.project a{color:var(--brand)}@media(max-width:720px){.foreground{display:none}}`;

/**
 * The card every auth page is: optional logo and descriptor, brand colour, a heading, content and a link
 * to the project's URL; the public background behind it, the public foreground beside it and the
 * public favicon (all from settings).
 */
export function renderPage(brand: Branding, title: string, content: SafeHtml): string {
  const logo = brand.logoUrl ? html`<img class="logo" src="${brand.logoUrl}" alt="${brand.name}">` : '';
  const descriptor = brand.descriptor ? html`<p class="descriptor">${brand.descriptor}</p>` : '';
  const project = brand.projectUrl ? html`<p class="project"><a href="${brand.projectUrl}" rel="noopener">${brand.name}</a></p>` : '';
  const favicon = brand.faviconUrl ? html`<link rel="icon" href="${brand.faviconUrl}">` : '';
  const foreground = brand.foregroundUrl ? html`<img class="foreground" src="${brand.foregroundUrl}" alt="">` : '';
  // Asset URLs hold only URL-safe characters (the id is percent-encoded); quoted for CSS, escaped for HTML.
  const backdrop = brand.backgroundUrl ? html` class="backdrop" style="background-image:url('${brand.backgroundUrl}')"` : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${brand.name}</title>
${favicon}
<style>${new SafeHtml(STYLE)}:root{--brand:${brand.color}}</style>
</head>
<body${backdrop}>
<div class="layout">
${foreground}
<main class="card">
${logo}
${descriptor}
${content}
${project}
</main>
</div>
</body>
</html>
`.value;
}
