// A Vite plugin for the tests: /redirect?to=<url> answers 302 to <url>, as an open redirect on a
// site would (test/model/module-engine.browser.test.ts: an engine module whose same-origin
// address redirects to another origin).
export function serveRedirects() {
  return {
    name: 'inpage-agent:serve-redirects',
    configureServer(server) {
      server.middlewares.use('/redirect', (request, response) => {
        const to = new URL(request.url ?? '', 'http://x').searchParams.get('to');
        response.statusCode = to ? 302 : 400;
        if (to) response.setHeader('location', to);
        response.end();
      });
    },
  };
}
