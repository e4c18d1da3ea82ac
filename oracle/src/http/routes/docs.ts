import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { Router } from 'express';

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Songmint API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', persistAuthorization: true });`;

/** GET /docs: Swagger UI served from the installed swagger-ui-dist (no CDN). */
export function docsRouter(): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.use('/assets', express.static(swaggerUiDir, { index: false, maxAge: '1d' }));
  return router;
}
