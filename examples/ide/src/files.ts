/** The files the example opens (an IDE would read them from a workspace). */
export const FILES: Record<string, string> = {
  'server.ts': `import { createServer } from 'node:http';

// Answers every request with the time, as JSON.
export function startServer(port: number) {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ path: request.url, now: Date.now() }));
  });
  server.listen(port);
  return server;
}

export function retry<T>(attempts: number, run: () => Promise<T>): Promise<T> {
  return run().catch((error) => (attempts > 1 ? retry(attempts - 1, run) : Promise.reject(error)));
}
`,
  'cli.py': `import argparse


def parse_args(argv):
    """Parse the command line: an input file and a verbose flag."""
    parser = argparse.ArgumentParser(description="convert files")
    parser.add_argument("input")
    parser.add_argument("--verbose", action="store_true")
    return parser.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    with open(args.input) as handle:
        print(handle.read().upper())
`,
};
