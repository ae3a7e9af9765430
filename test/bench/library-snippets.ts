/**
 * The generated library of the search, app and backup sections: code in several languages and prose
 * notes, identifiers compounded from a vocabulary drawn with a Zipf-like skew (a few words everywhere,
 * most words rare), comments in plain words; and the queries people would type over it.
 */
import { SeededDraws } from '../support/random.ts';
import { APPLICATION } from '../support/seeds.ts';

const NOUNS = (
  'user account order invoice payment cart item product price discount tax total customer address email phone session token ' +
  'cookie header request response client server handler route controller service repository model schema table column index ' +
  'query filter sort page cursor offset limit cache buffer queue stream channel message event listener subscriber topic worker ' +
  'task job schedule timer retry backoff timeout deadline lock mutex semaphore thread pool connection socket port host proxy ' +
  'file folder path directory archive image thumbnail video audio frame pixel color font style layout widget button form field ' +
  'input output config setting option flag feature toggle environment secret key hash digest signature certificate credential ' +
  'permission role group team project issue ticket comment review commit branch merge tag release version build artifact ' +
  'package module plugin extension dependency graph node edge tree leaf root parent child sibling list array map set vector ' +
  'matrix tensor batch chunk block segment record entry row document field metric counter gauge histogram trace span log ' +
  'report summary dashboard chart alert notification webhook callback promise future result error exception warning status ' +
  'state transition machine parser lexer token grammar compiler interpreter template renderer serializer decoder encoder ' +
  'checksum compression encryption locale timezone date calendar currency inventory shipment warehouse supplier vendor'
).split(' ');
const VERBS = (
  'get set load save fetch send parse render build create update delete remove find search match merge split join sort filter ' +
  'map reduce validate normalize format convert encode decode encrypt decrypt compress upload download sync refresh reset ' +
  'start stop open close read write flush commit rollback retry schedule cancel publish subscribe notify emit handle resolve ' +
  'register unregister apply compute count sum average group index cache evict expire lock unlock'
).split(' ');
const PROSE = (
  'the a this that when before after every each only never always should must can will we you it because so then ' +
  'remember note check make sure keep move use avoid prefer try first last next previous new old small large fast slow ' +
  'safe simple clear careful quick weekly daily release team meeting review deploy production staging backup migration'
).split(' ');

export class SnippetGen extends SeededDraws {
  constructor(
    seed: number,
    private tagShare: number,
  ) {
    super(seed >>> 0 || 1);
  }
  /** Zipf-like: index i drawn with weight ~ 1/(i+1). */
  zipf<T>(xs: readonly T[]): T {
    const i = Math.floor(Math.exp(this.rnd() * Math.log(xs.length + 1))) - 1;
    return xs[Math.min(xs.length - 1, Math.max(0, i))]!;
  }
  noun(): string {
    return this.zipf(NOUNS);
  }
  verb(): string {
    return this.zipf(VERBS);
  }
  camel(): string {
    return this.verb() + this.cap(this.noun()) + (this.rnd() < 0.35 ? this.cap(this.noun()) : '');
  }
  snake(): string {
    return `${this.verb()}_${this.noun()}${this.rnd() < 0.35 ? `_${this.noun()}` : ''}`;
  }
  pascal(): string {
    return this.cap(this.noun()) + this.cap(this.pick(['Service', 'Store', 'Manager', 'Client', 'Handler', 'Builder', 'Repository', 'Cache']));
  }
  sentence(lo = 5, hi = 14): string {
    const words = Array.from({ length: this.int(lo, hi) }, () => (this.rnd() < 0.45 ? this.pick(PROSE) : this.rnd() < 0.5 ? this.noun() : this.verb()));
    return `${this.cap(words.join(' '))}.`;
  }
  lines(lo: number, hi: number, f: () => string): string {
    return Array.from({ length: this.int(lo, hi) }, f).join('\n');
  }

  snippet(): { raw: string; specific: string } {
    const kind = this.int(0, 8);
    const a = this.noun();
    const b = this.noun();
    switch (kind) {
      case 0:
        return {
          specific: 'py',
          raw: `def ${this.snake()}(${a}s, ${b}=None):\n    """${this.sentence()}"""\n    result = []\n    for ${a} in ${a}s:\n${this.lines(1, 4, () => `        if ${a}.${this.noun()} is not None:\n            result.append(${this.snake()}(${a}.${this.noun()}))`)}\n    return result\n`,
        };
      case 1:
        return {
          specific: 'js',
          raw: `// ${this.sentence()}\nexport async function ${this.camel()}(${a}Id, options = {}) {\n  const response = await fetch(\`/api/${a}s/\${${a}Id}/${b}s\`);\n  if (!response.ok) throw new Error('${this.camel()} failed');\n  const ${a} = await response.json();\n${this.lines(1, 4, () => `  ${a}.${this.noun()} = options.${this.noun()} ?? ${this.camel()}(${a});`)}\n  return ${a};\n}\n`,
        };
      case 2: {
        const iface = this.pascal();
        return {
          specific: 'ts',
          raw: `/** ${this.sentence()} */\nexport interface ${iface} {\n${this.lines(2, 5, () => `  ${this.noun()}: ${this.pick(['string', 'number', 'boolean', 'Date', 'string[]'])};`)}\n}\n\nexport function ${this.camel()}(items: readonly ${iface}[]): Map<string, ${iface}> {\n  return new Map(items.map((item) => [item.${a}, item]));\n}\n`,
        };
      }
      case 3:
        return {
          specific: 'go',
          raw: `package ${a}\n\n// ${this.cap(this.camel())} ${this.sentence().toLowerCase()}\nfunc (s *${this.pascal()}) ${this.cap(this.camel())}(ctx context.Context, id int64) (*${this.cap(b)}, error) {\n\tif id <= 0 {\n\t\treturn nil, fmt.Errorf("invalid ${a} id %d", id)\n\t}\n\treturn s.${this.camel()}(ctx, id)\n}\n`,
        };
      case 4:
        return {
          specific: 'java',
          raw: `public class ${this.pascal()} {\n    // ${this.sentence()}\n    public List<${this.cap(a)}> ${this.camel()}(String ${b}) {\n        return ${a}s.stream().filter(x -> x.get${this.cap(b)}().equals(${b})).collect(Collectors.toList());\n    }\n}\n`,
        };
      case 5:
        return {
          specific: 'rs',
          raw: `/// ${this.sentence()}\npub fn ${this.snake()}(${a}: &${this.cap(a)}, ${b}: u64) -> Result<${this.cap(b)}, Error> {\n    let ${this.noun()} = ${a}.${this.snake()}(${b})?;\n    Ok(${this.cap(b)}::new(${this.noun()}))\n}\n`,
        };
      case 6:
        return {
          specific: 'sql',
          raw: `-- ${this.sentence()}\nSELECT ${a}s.id, ${a}s.${this.noun()}, COUNT(${b}s.id) AS ${b}_count\nFROM ${a}s\nJOIN ${b}s ON ${b}s.${a}_id = ${a}s.id\nWHERE ${a}s.${this.noun()} > ${this.int(1, 500)}\nGROUP BY ${a}s.id\nORDER BY ${b}_count DESC;\n`,
        };
      case 7:
        return {
          specific: 'sh',
          raw: `#!/usr/bin/env bash\n# ${this.sentence()}\nset -euo pipefail\nfor f in ./${a}s/*.${this.pick(['log', 'json', 'csv'])}; do\n  ${this.pick(['gzip -k', 'jq .', 'wc -l'])} "$f"\ndone\n`,
        };
      default:
        return { specific: 'md', raw: `# ${this.cap(a)} ${b} notes\n\n${this.lines(2, 5, () => this.sentence(8, 20))}\n` };
    }
  }

  seed() {
    const { raw, specific } = this.snippet();
    const tags = this.rnd() < this.tagShare ? [{ text: this.noun() }, ...(this.rnd() < 0.3 ? [{ text: this.verb() }] : [])] : [];
    return {
      asset: {
        application: APPLICATION,
        format: { fragment: { string: { raw } }, classification: { specific } },
        ...(tags.length ? { metadata: { tags } } : {}),
      },
    };
  }

  /** A query as people type them: identifiers, words, a typo now and then, an unfinished word. */
  query(): string {
    const kind = this.rnd();
    if (kind < 0.25) return this.camel();
    if (kind < 0.4) return this.snake();
    if (kind < 0.65) return `${this.verb()} ${this.noun()}${this.rnd() < 0.5 ? ` ${this.noun()}` : ''}`;
    if (kind < 0.8) {
      const w = this.noun();
      const i = this.int(1, w.length - 2);
      return `${this.verb()} ${w.slice(0, i)}${w[i + 1]}${w[i]}${w.slice(i + 2)}`; // two letters swapped
    }
    if (kind < 0.9) return `${this.noun()} ${this.noun().slice(0, this.int(3, 5))}`; // still typing
    return `how to ${this.verb()} the ${this.noun()} ${this.pick(PROSE)}`;
  }
}
