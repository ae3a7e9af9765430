/**
 * The generated snippets of the create, read and listing sections of the benchmark (run.ts): varied,
 * realistic snippets in several languages and prose, from templates, deterministic for a given seed.
 */
import { SeededDraws } from '../support/random.ts';
import { fragmentSeed } from '../support/seeds.ts';



const WORDS = (
  'user order invoice cart item price total count index cache buffer token session account payment ' +
  'record entry config option value result request response client server handler parser reader writer ' +
  'stream queue batch chunk node tree graph edge path file folder image thumbnail report metric event ' +
  'message channel worker task job retry limit offset page cursor filter sort key hash digest score rank'
).split(' ');
const VERBS = 'get set load save parse build render fetch update delete create find merge split format validate compute apply resolve flush'.split(' ');
const PROSE = (
  'the team agreed to keep the release small this week and to move the migration to the next sprint ' +
  'because the storage layer still needs a review before we can trust it with real data from users ' +
  'remember that every change to the schema has to come with a migration and a test that opens an old database ' +
  'we should write down what we measured so that nobody has to repeat the same experiment in a month ' +
  'the meeting notes are in the shared folder and the action items are listed at the end of this page'
).split(' ');

class Gen extends SeededDraws {
  word(): string {
    return this.pick(WORDS);
  }
  camel(): string {
    return this.pick(VERBS) + this.cap(this.word()) + (this.rnd() < 0.4 ? this.cap(this.word()) : '');
  }
  snake(): string {
    return `${this.pick(VERBS)}_${this.word()}${this.rnd() < 0.4 ? `_${this.word()}` : ''}`;
  }
  pascal(): string {
    return this.cap(this.word()) + this.cap(this.pick(['service', 'store', 'manager', 'builder', 'client', 'model', 'view', 'repository']));
  }
  times(lo: number, hi: number, f: (i: number) => string): string[] {
    return Array.from({ length: this.int(lo, hi) }, (_, i) => f(i));
  }
  sentence(): string {
    const words = this.times(8, 20, () => this.pick(PROSE));
    return `${this.cap(words.join(' '))}.`;
  }
}

type Template = (g: Gen) => string;

/** Templates per intended language (wire `specific` strings, to tally what the classifier said). */
const TEMPLATES: Record<string, Template[]> = {
  py: [
    (g) => {
      const fn = g.snake();
      const a = g.word();
      const b = g.word();
      return `def ${fn}(${a}s, ${b}=None):
    """${g.cap(g.pick(VERBS))} the ${a}s and return the ${b}."""
    result = []
    for ${a} in ${a}s:
${g.times(1, 5, () => `        if ${a}.${g.word()} is not None:\n            result.append(${a}.${g.word()})`).join('\n')}
    return sorted(result, key=lambda x: x.${g.word()})
`;
    },
    (g) => {
      const cls = g.pascal();
      const fields = g.times(2, 5, () => g.word());
      return `import logging
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass
class ${cls}:
${fields.map((f) => `    ${f}: str`).join('\n')}

    def ${g.snake()}(self) -> dict:
        log.debug("building %s", self.${fields[0]})
        return {${fields.map((f) => `"${f}": self.${f}`).join(', ')}}
`;
    },
  ],
  js: [
    (g) => {
      const fn = g.camel();
      const x = g.word();
      return `export async function ${fn}(${x}Id, options = {}) {
  const response = await fetch(\`/api/${x}s/\${${x}Id}\`, { method: 'GET' });
  if (!response.ok) throw new Error(\`${fn} failed: \${response.status}\`);
  const ${x} = await response.json();
${g.times(1, 4, () => `  ${x}.${g.word()} = options.${g.word()} ?? ${x}.${g.word()};`).join('\n')}
  return ${x};
}
`;
    },
    (g) => {
      const cls = g.pascal();
      return `class ${cls} {
  constructor(${g.word()}) {
    this.items = new Map();
    this.limit = ${g.int(10, 500)};
  }

${g
  .times(2, 4, () => {
    const m = g.camel();
    return `  ${m}(key, value) {\n    if (this.items.size >= this.limit) this.items.delete(this.items.keys().next().value);\n    this.items.set(key, value);\n    return this;\n  }`;
  })
  .join('\n\n')}
}

module.exports = { ${cls} };
`;
    },
  ],
  ts: [
    (g) => {
      const iface = g.pascal();
      const fields = g.times(2, 5, () => g.word());
      const fn = g.camel();
      return `export interface ${iface} {
${fields.map((f) => `  ${f}: ${g.pick(['string', 'number', 'boolean', 'string[]', 'Date'])};`).join('\n')}
}

export function ${fn}(items: readonly ${iface}[], limit: number = ${g.int(5, 50)}): Map<string, ${iface}> {
  const out = new Map<string, ${iface}>();
  for (const item of items.slice(0, limit)) {
    out.set(String(item.${fields[0]}), item);
  }
  return out;
}
`;
    },
  ],
  go: [
    (g) => {
      const s = g.pascal();
      const fn = g.cap(g.camel());
      return `package ${g.word()}

import (
	"errors"
	"fmt"
)

type ${s} struct {
${g.times(2, 4, () => `	${g.cap(g.word())} ${g.pick(['string', 'int', 'bool', '[]byte'])}`).join('\n')}
}

func (s *${s}) ${fn}(id int) error {
	if id <= 0 {
		return errors.New("invalid id")
	}
	fmt.Printf("${g.word()} %d\\n", id)
	return nil
}
`;
    },
  ],
  rs: [
    (g) => {
      const s = g.pascal();
      const fn = g.snake();
      return `use std::collections::HashMap;

#[derive(Debug, Clone)]
pub struct ${s} {
    entries: HashMap<String, u64>,
}

impl ${s} {
    pub fn new() -> Self {
        Self { entries: HashMap::new() }
    }

    pub fn ${fn}(&mut self, key: &str) -> Option<u64> {
        match self.entries.get_mut(key) {
            Some(v) => { *v += ${g.int(1, 9)}; Some(*v) }
            None => None,
        }
    }
}
`;
    },
  ],
  java: [
    (g) => {
      const cls = g.pascal();
      const m = g.camel();
      return `package com.example.${g.word()};

import java.util.ArrayList;
import java.util.List;

public class ${cls} {
    private final List<String> ${g.word()}s = new ArrayList<>();

    public List<String> ${m}(String prefix) {
        List<String> result = new ArrayList<>();
        for (String s : ${g.word()}s) {
            if (s.startsWith(prefix)) {
                result.add(s.toUpperCase());
            }
        }
        return result;
    }
}
`;
    },
  ],
  c: [
    (g) => {
      const fn = g.snake();
      return `#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ${fn}(const char *${g.word()}, size_t len) {
    int total = 0;
    for (size_t i = 0; i < len; i++) {
        total += (unsigned char)${g.word()}[i] * ${g.int(3, 31)};
    }
    return total % ${g.int(97, 1021)};
}

int main(int argc, char **argv) {
    if (argc < 2) return 1;
    printf("%d\\n", ${fn}(argv[1], strlen(argv[1])));
    return 0;
}
`;
    },
  ],
  rb: [
    (g) => {
      const cls = g.pascal();
      return `class ${cls}
  attr_reader :${g.word()}, :${g.word()}

  def initialize(${g.word()})
    @items = []
  end

  def ${g.snake()}(name)
    @items.select { |item| item.name == name }.map(&:${g.word()})
  end
end
`;
    },
  ],
  sql: [
    (g) => {
      const t = `${g.word()}s`;
      const u = `${g.word()}s`;
      return `SELECT ${t}.id, ${t}.${g.word()}, COUNT(${u}.id) AS ${g.word()}_count, SUM(${u}.${g.word()}) AS total
FROM ${t}
JOIN ${u} ON ${u}.${g.word()}_id = ${t}.id
WHERE ${t}.created_at >= DATE '2024-0${g.int(1, 9)}-01'
  AND ${u}.status IN ('open', 'pending')
GROUP BY ${t}.id, ${t}.${g.word()}
HAVING COUNT(${u}.id) > ${g.int(1, 20)}
ORDER BY total DESC
LIMIT ${g.int(10, 100)};
`;
    },
    (g) => {
      const t = `${g.word()}_${g.word()}s`;
      return `CREATE TABLE ${t} (
    id BIGSERIAL PRIMARY KEY,
${g.times(2, 5, () => `    ${g.word()}_${g.word()} ${g.pick(['TEXT NOT NULL', 'INTEGER DEFAULT 0', 'TIMESTAMP', 'BOOLEAN', 'NUMERIC(10, 2)'])},`).join('\n')}
    created_at TIMESTAMP NOT NULL DEFAULT now()
);

CREATE INDEX idx_${t}_created ON ${t} (created_at);
`;
    },
  ],
  sh: [
    (g) => {
      const dir = g.word();
      return `#!/usr/bin/env bash
set -euo pipefail

${dir.toUpperCase()}_DIR="\${1:-./${dir}}"
for f in "$${dir.toUpperCase()}_DIR"/*.${g.pick(['log', 'txt', 'json', 'csv'])}; do
  if [ -s "$f" ]; then
    echo "processing $f"
    gzip -k "$f"
  fi
done
echo "done: $(ls "$${dir.toUpperCase()}_DIR" | wc -l) files"
`;
    },
    (g) => `# ${g.word()} setup
export ${g.word().toUpperCase()}_HOME=/opt/${g.word()}
mkdir -p "$${g.word().toUpperCase()}_HOME/bin"
curl -fsSL https://example.com/${g.word()}.tar.gz | tar -xz -C /tmp
cp /tmp/${g.word()}/bin/* "$HOME/.local/bin/"
grep -q ${g.word()} ~/.bashrc || echo 'export PATH="$HOME/.local/bin:$PATH"' >> ~/.bashrc
`,
  ],
  css: [
    (g) => `.${g.word()}-${g.word()} {
  display: flex;
  gap: ${g.int(2, 24)}px;
  padding: ${g.int(0, 16)}px ${g.int(0, 32)}px;
  color: #${g.int(0, 0xffffff).toString(16).padStart(6, '0')};
}

.${g.word()}:hover > .${g.word()} {
  border-radius: ${g.int(2, 12)}px;
  transition: opacity 0.${g.int(1, 9)}s ease-in-out;
}
`,
  ],
  md: [
    (g) => `# ${g.cap(g.word())} ${g.word()} notes

${g.sentence()} ${g.sentence()}

- ${g.sentence()}
- ${g.sentence()}
- Run \`npm run ${g.word()}\` before you push.

See [the ${g.word()} guide](https://example.com/${g.word()}) for details.
`,
  ],
  txt: [(g) => g.times(2, 6, () => g.sentence()).join(' ')],
};

export const LANGS = Object.keys(TEMPLATES);

export function snippets(count: number, seed: number): { lang: string; raw: string }[] {
  const g = new Gen(seed);
  return Array.from({ length: count }, (_, i) => {
    const lang = LANGS[i % LANGS.length]!;
    return { lang, raw: g.pick(TEMPLATES[lang]!)(g) };
  });
}

export const seedBody = (raw: string) => JSON.stringify(fragmentSeed(raw));
/** A seed that names its language: the service skips the classifier (used to fill the listing library fast). */
export const classifiedSeedBody = (raw: string, specific: string) => JSON.stringify(fragmentSeed(raw, undefined, { specific }));
