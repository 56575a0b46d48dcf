import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { MSG } from '../../shared/messages';

/**
 * Serves the built web app and uploaded files from one origin. Unknown `/api/…`
 * paths answer 404 JSON; every other unknown GET serves the app, whose router sends it to `/`.
 */
export async function registerWebApp(
  app: FastifyInstance,
  options: { webDist: string; uploadsDir: string; meta: (pathname: string) => Promise<string> },
): Promise<void> {
  fs.mkdirSync(options.uploadsDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: options.uploadsDir,
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    maxAge: '30d',
    immutable: true,
    setHeaders: (res) => res.header('x-content-type-options', 'nosniff'),
  });

  const indexFile = path.join(options.webDist, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: options.webDist,
      prefix: '/',
      wildcard: false,
      index: false,
      setHeaders: (res, file) => {
        // Hashed assets never change; the service worker and manifest must always be revalidated.
        if (file.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
  }
  // The page's title, description and Open Graph tags are rendered into the HTML per path, so
  // link previews (Discord, search engines) see them without running the app.
  const [head, tail = ''] = built
    ? fs
        .readFileSync(indexFile, 'utf8')
        .replace(/<title>[\s\S]*?<\/title>\s*/, '')
        .replace(/<meta name="description"[^>]*>\s*/, '')
        .split(/(?=<\/head>)/i)
    : [];

  const sendApp = async (reply: FastifyReply, pathname: string) => {
    if (head === undefined) {
      return reply.code(503).type('text/plain').send('The web app is not built yet: run `npm run build` (npm start does it for you).');
    }
    const meta = await options.meta(pathname);
    return reply.type('text/html').header('cache-control', 'no-cache').send(`${head}  ${meta}\n  ${tail}`);
  };

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url === '/api' || url.startsWith('/api/') || url.startsWith('/uploads/') || request.method !== 'GET') {
      return reply.code(404).send({ error: MSG.notFound });
    }
    return sendApp(reply, url);
  });
}
