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
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
background:#f4f5f7;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933}
.card{background:#fff;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.08);padding:32px;width:100%;max-width:380px;
border-top:4px solid var(--brand)}.logo{display:block;max-height:56px;max-width:200px;margin:0 auto 16px}
h1{font-size:1.3rem;margin:0 0 16px;text-align:center}p{margin:0 0 12px;text-align:center}
form{margin:0 0 16px}label{display:block;font-size:.9rem;margin:8px 0 4px}
input[type=email],input[type=password],input[type=text]{width:100%;padding:10px;border:1px solid #cbd2d9;border-radius:6px;font:inherit}
button,.button{display:block;width:100%;margin-top:12px;padding:10px;border:0;border-radius:6px;background:var(--brand);
color:#fff;font:inherit;font-weight:600;cursor:pointer;text-align:center;text-decoration:none}
.separator{display:flex;align-items:center;gap:8px;color:#7b8794;font-size:.85rem;margin:8px 0 16px}
.separator:before,.separator:after{content:"";flex:1;border-top:1px solid #e4e7eb}.error{color:#b42318}`;

/** The card every auth page is: optional logo, brand colour (settings), a heading and content. */
export function renderPage(brand: Branding, title: string, content: SafeHtml): string {
  const logo = brand.logoUrl ? html`<img class="logo" src="${brand.logoUrl}" alt="${brand.name}">` : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${brand.name}</title>
<style>${new SafeHtml(STYLE)}:root{--brand:${brand.color}}</style>
</head>
<body>
<main class="card">
${logo}
${content}
</main>
</body>
</html>
`.value;
}
