// Placeholder until the core app lands: answers health and a JSON 404 for everything else.
export interface ServiceApp {
  fetch(request: Request): Promise<Response> | Response;
}

export async function createServiceApp(base: string): Promise<ServiceApp> {
  return {
    fetch(request) {
      const path = new URL(request.url).pathname.slice(base.length);
      if (path === '/.well-known/health') return new Response('ok', { headers: { 'content-type': 'text/plain' } });
      return Response.json({ error: { status: 404, code: 'not_found', message: `no route ${path}` } }, { status: 404 });
    },
  };
}
