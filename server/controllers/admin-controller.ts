import { createReadStream, existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';

/** Where Vite writes the admin build. */
export const ADMIN_DIST = fileURLToPath(new URL('../../admin/dist/', import.meta.url));

const PLACEHOLDER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tessera</title>
<style>body{font:16px system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f4f4f8;color:#172940}
main{background:#fff;padding:2.5rem 3rem;border-radius:12px;box-shadow:0 2px 12px #0001;max-width:32rem}h1{color:#6644ff;margin-top:0}</style></head>
<body><main><h1>Tessera</h1><p>The server is running. The admin app has not been built in this checkout yet.</p>
<p>The REST API is live: try <a href="../server/health">/server/health</a>.</p></main></body></html>`;

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json', '.woff2': 'font/woff2', '.html': 'text/html' };

/** Decodes a URL path; a malformed one matches no file (and so gets index.html). */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return '';
  }
}

/**
 * Serves `/admin`: files of the built single-page app (hashed assets cached for a year), index.html for
 * every other admin path so client-side routes load, or a placeholder page while no build exists.
 */
export function adminController(distDir: string = ADMIN_DIST, embeds: () => { head: string; body: string } = () => ({ head: '', body: '' })): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/' || ctx.path === '/admin') return ctx.redirect('/admin/');
    if (!ctx.path.startsWith('/admin/')) return next();

    const index = path.join(distDir, 'index.html');
    if (!existsSync(index)) {
      ctx.type = 'text/html';
      ctx.body = PLACEHOLDER;
      return;
    }
    const requested = path.normalize(path.join(distDir, safeDecode(ctx.path.slice('/admin/'.length))));
    const isFile = requested.startsWith(distDir) && existsSync(requested) && statSync(requested).isFile();
    const file = isFile ? requested : index;
    ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    ctx.set('Cache-Control', isFile && requested.startsWith(path.join(distDir, 'assets')) ? 'public, max-age=31536000, immutable' : 'no-cache');
    const { head, body } = file === index ? embeds() : { head: '', body: '' };
    // Hook extensions may embed HTML in the page (Directus's `embed('head' | 'body', …)`).
    ctx.body = head || body ? (await readFile(index, 'utf8')).replace('</head>', `${head}\n</head>`).replace('</body>', `${body}\n</body>`) : createReadStream(file);
  };
}
