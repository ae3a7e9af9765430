/** Seeds and values shared by the Node route tests and the Chromium end-to-end tests. */

export const APPLICATION = {
  id: 'test-app',
  name: 'VS_CODE',
  version: '1.0.0',
  platform: 'LINUX',
  onboarded: true,
  privacy: 'OPEN',
} as const;

export const PYTHON_SNIPPET = `def parse_args(argv):
    """Parse command line arguments."""
    import argparse
    parser = argparse.ArgumentParser(description="demo")
    parser.add_argument("--verbose", action="store_true")
    return parser.parse_args(argv)
`;

export const GO_SNIPPET = `package main

import "fmt"

func main() {
	fmt.Println("hello, world")
}
`;

/** A 1x1 transparent PNG. */
export const PNG_BYTES = [
  137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 31, 21, 196, 137, 0, 0, 0,
  13, 73, 68, 65, 84, 120, 156, 99, 0, 1, 0, 0, 5, 0, 1, 13, 10, 45, 180, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

export function fragmentSeed(raw: string, metadata?: Record<string, unknown>, classification?: Record<string, unknown>) {
  return {
    asset: {
      application: APPLICATION,
      format: { fragment: { string: { raw } }, ...(classification ? { classification } : {}) },
      ...(metadata ? { metadata } : {}),
    },
  };
}

export function fileSeed(file: Record<string, unknown>, metadata?: Record<string, unknown>) {
  return { asset: { application: APPLICATION, format: { file }, ...(metadata ? { metadata } : {}) } };
}

/** Three small snippets that a relevance query tells apart (qgpt relevance tests). */
export const YAML_SNIPPET = `def load_config(path):
    """Read the YAML configuration file and return it as a dict."""
    with open(path) as handle:
        return yaml.safe_load(handle)
`;
export const RETRY_SNIPPET = `async function retryWithBackoff(task, attempts = 5) {
  // Run the task again after a growing delay when it fails.
  for (let i = 0; i < attempts; i++) {
    try { return await task(); } catch (error) { await sleep(2 ** i * 100); }
  }
  throw new Error('gave up');
}
`;
export const CSV_SNIPPET = `def write_rows(rows, out):
    """Write rows of values to a CSV file."""
    writer = csv.writer(out)
    for row in rows:
        writer.writerow(row)
`;
