import * as z from 'zod';
import { lazySchema } from './lazy-schema.ts';

// Built on first use, like the models in schemas.ts (see lazy-schema.ts).

export const QGPTStreamEnumSchema = lazySchema(() => z.enum([
  'UNKNOWN', 'CANCELED', 'INITIALIZED', 'IN-PROGRESS', 'COMPLETED', 'FAILED', 'STOPPED', 'RESET',
]));
export type QGPTStreamEnum = z.infer<typeof QGPTStreamEnumSchema>;

export const SeedTypeEnumSchema = lazySchema(() => z.enum(['UNKNOWN', 'SEEDED_FORMAT', 'SEEDED_ASSET']));
export type SeedTypeEnum = z.infer<typeof SeedTypeEnumSchema>;

export const MechanismEnumSchema = lazySchema(() => z.enum([
  'UNKNOWN', 'MANUAL', 'RECOMMENDED', 'AUTOMATIC', 'INTERNAL', 'DELETED', 'EXTERNAL_AGENT',
]));
export type MechanismEnum = z.infer<typeof MechanismEnumSchema>;

export const ClassificationGenericEnumSchema = lazySchema(() => z.enum([
  'UNKNOWN', 'CODE', 'TEXT', 'IMAGE', 'VIDEO', 'EXTERNAL_RESOURCE_REFERENCE', 'FILE',
]));
export type ClassificationGenericEnum = z.infer<typeof ClassificationGenericEnumSchema>;

export const ClassificationRenderingEnumSchema = lazySchema(() => z.enum([
  'UNKNOWN', 'HTML', 'TWENTY_FOUR_BIT_ANSI_ESCAPED_SEQUENCES', 'HIGHLIGHT_JS_HTML',
]));
export type ClassificationRenderingEnum = z.infer<typeof ClassificationRenderingEnumSchema>;

export const RoleSchema = lazySchema(() => z.enum(['UNKNOWN', 'ORIGINAL', 'ADDITIONAL', 'BOTH', 'PREVIEW']));
export type Role = z.infer<typeof RoleSchema>;

export const SearchedMatchEnumSchema = lazySchema(() => z.enum([
  'UNKNOWN', 'TITLE', 'ANNOTATION', 'HINT', 'CONTENT', 'FUZZY', 'MULTIPLE', 'TAGS', 'WEBSITES', 'PERSONS',
]));
export type SearchedMatchEnum = z.infer<typeof SearchedMatchEnumSchema>;

export const FilterOperationTypeEnumSchema = lazySchema(() => z.enum(['UNKNOWN', 'AND', 'OR']));
export type FilterOperationTypeEnum = z.infer<typeof FilterOperationTypeEnumSchema>;

export const AnnotationTypeEnumSchema = lazySchema(() => z.enum([
  'UNKNOWN', 'DESCRIPTION', 'COMMENT', 'DOCUMENTATION', 'SUMMARY', 'EXPLANATION', 'GIT_COMMIT',
]));
export type AnnotationTypeEnum = z.infer<typeof AnnotationTypeEnumSchema>;

export const HintTypeEnumSchema = lazySchema(() => z.enum(['UNKNOWN', 'SUGGESTED_QUERY', 'QGPT_HINT']));
export type HintTypeEnum = z.infer<typeof HintTypeEnumSchema>;

export const TagCategoryEnumSchema = lazySchema(() => z.enum(['UNKNOWN', 'HANDLE', 'EMAIL']));
export type TagCategoryEnum = z.infer<typeof TagCategoryEnumSchema>;

export const ConversationTypeEnumSchema = lazySchema(() => z.enum(['UNKNOWN', 'COPILOT']));
export type ConversationTypeEnum = z.infer<typeof ConversationTypeEnumSchema>;

export const QGPTConversationMessageRoleEnumSchema = lazySchema(() => z.enum([
  'UNKNOWN', 'USER', 'SYSTEM', 'ASSISTANT',
]));
export type QGPTConversationMessageRoleEnum = z.infer<typeof QGPTConversationMessageRoleEnumSchema>;

export const ApplicationNameEnumSchema = lazySchema(() => z.enum([
  'UNKNOWN', 'SUBLIME', 'VS_CODE', 'JETBRAINS', 'FIREFOX_ADDON_MV2', 'FIREFOX_ADDON_MV3', 'SAFARI_EXTENSION_MV2',
  'SAFARI_EXTENSION_MV3', 'PIECES_FOR_DEVELOPERS', 'PIECES_FOR_DEVELOPERS_CLI', 'OS_SERVER',
  'GOOGLE_CHROME_EXTENSION_MV2', 'GOOGLE_CHROME_EXTENSION_MV3', 'ULTRA_EDIT', 'ATOM_PACKAGE',
  'ADOBE_ILLUSTRATOR_PIECES_COLOR_SHARE', 'MICROSOFT_TEAMS', 'CHAT_GPT', 'OBSIDIAN', 'JUPYTER_HUB', 'VISUAL_STUDIO',
  'MICROSOFT_EDGE', 'BRAVE', 'GOOGLE_CHAT', 'SLACK', 'AZURE_DATA_STUDIO', 'OPEN_SOURCE', 'R_STUDIO', 'VIM', 'NOTION',
  'GITHUB_DESKTOP', 'RAYCAST', 'REPLIT', 'ALFRED', 'FIGMA', 'SKETCH', 'ADOBE_ILLUSTRATOR', 'NOTEPAD_PLUS_PLUS',
  'EMBEETLE', 'ECLIPSE', 'X_CODE', 'NETBEANS', 'OPERA',
]));
export type ApplicationNameEnum = z.infer<typeof ApplicationNameEnumSchema>;

export const PlatformEnumSchema = lazySchema(() => z.enum([
  'UNKNOWN', 'WEB', 'MACOS', 'LINUX', 'WINDOWS', 'FUCHSIA', 'IOS', 'ANDROID',
]));
export type PlatformEnum = z.infer<typeof PlatformEnumSchema>;

export const PrivacyEnumSchema = lazySchema(() => z.enum(['UNKNOWN', 'OPEN', 'CLOSED', 'ANONYMOUS']));
export type PrivacyEnum = z.infer<typeof PrivacyEnumSchema>;

export const CapabilitiesEnumSchema = lazySchema(() => z.enum(['UNKNOWN', 'LOCAL', 'CLOUD', 'BLENDED']));
export type CapabilitiesEnum = z.infer<typeof CapabilitiesEnumSchema>;

export const EmbeddedModelSchemaSemanticVersionEnumSchema = lazySchema(() => z.enum([
  'UNKNOWN', 'MAJOR_0_MINOR_0_PATCH_1',
]));
export type EmbeddedModelSchemaSemanticVersionEnum = z.infer<typeof EmbeddedModelSchemaSemanticVersionEnumSchema>;

export const SensitiveCategoryEnumSchema = lazySchema(() => z.enum([
  'UNKNOWN', 'SECRET', 'API_KEY', 'CLIENT_ID', 'CLIENT_SECRET', 'SECRET_KEY', 'API_TOKEN', 'ACCESS_KEY',
  'ACCESS_TOKEN', 'URL', 'PUBLIC_KEY', 'PRIVATE_KEY', 'API_ID', 'WEB_HOOK_URL',
]));
export type SensitiveCategoryEnum = z.infer<typeof SensitiveCategoryEnumSchema>;

export const SensitiveSeverityEnumSchema = lazySchema(() => z.enum(['UNKNOWN', 'LOW', 'MODERATE', 'HIGH']));
export type SensitiveSeverityEnum = z.infer<typeof SensitiveSeverityEnumSchema>;

export const AnchorTypeEnumSchema = lazySchema(() => z.enum(['UNKNOWN', 'FILE', 'DIRECTORY']));
export type AnchorTypeEnum = z.infer<typeof AnchorTypeEnumSchema>;

export const ConversationMessageSentimentEnumSchema = lazySchema(() => z.enum([
  'UNKNOWN', 'LIKE', 'DISLIKE', 'REPORT',
]));
export type ConversationMessageSentimentEnum = z.infer<typeof ConversationMessageSentimentEnumSchema>;

export const ModelTypeEnumSchema = lazySchema(() => z.enum(['UNKNOWN', 'BALANCED', 'SPEED', 'ACCURACY']));
export type ModelTypeEnum = z.infer<typeof ModelTypeEnumSchema>;

export const ModelUsageEnumSchema = lazySchema(() => z.enum([
  'UNKNOWN', 'OCR', 'CODE_CLASSIFICATION', 'TEXT_VS_CODE', 'TAGIFY_CODE', 'TLP_TAG_SEARCH', 'TLP_NEURAL_CODE_SEARCH',
  'TAGIFY_COLOR_FROM_CODE', 'CODE_DESCRIPTION', 'CODE_TITLE', 'CODE_SEARCH_QUERIES', 'CODE_EXTRACTIVE_TAGS',
  'CODE_EXTRACTIVE_LINKS', 'CODE_CONVERSATION', 'CODE_GENERATION', 'CODE_SEARCH', 'CODE_DISCOVERY',
  'CODE_RELATED_PEOPLE', 'CODE_FRAMEWORK', 'VIDEO_OCR', 'TEXT_VS_CODE_SEGMENTATION', 'TEXT_EMBEDDING',
  'TECHNICAL_ERROR',
]));
export type ModelUsageEnum = z.infer<typeof ModelUsageEnumSchema>;

export const MigrationStatusEnumSchema = lazySchema(() => z.enum([
  'UNKNOWN', 'INITIALIZED', 'IN-PROGRESS', 'COMPLETED', 'FAILED', 'CANCELED', 'RESET',
]));
export type MigrationStatusEnum = z.infer<typeof MigrationStatusEnumSchema>;

/** Query parameter `export_type` of the asset export operation. */
export const AssetSpecificAssetExportExportTypeEnumSchema = lazySchema(() => z.enum(['UNKNOWN', 'HTML', 'MD']));
export type AssetSpecificAssetExportExportTypeEnum = z.infer<typeof AssetSpecificAssetExportExportTypeEnumSchema>;

/** All 505 wire values, case-sensitive (file extensions, `hljs-*` names, dotfiles, lock files). */
export const CLASSIFICATION_SPECIFIC_VALUES = [
  'UNKNOWN', 'csx', 'cs', 'html', 'htm', 'shtml', 'xhtml', 'hs', 'hs-boot', 'hsig', 'cpp', 'cc', 'cp', 'cxx',
  'c', 'h', 'hh', 'hpp', 'hxx', 'inl', 'ipp', 'ixx', 'cppm', 'csv', 'doc', 'docm', 'docx', 'exe', 'gif', 'ico',
  'jpe', 'jpeg', 'jpg', 'jpgm', 'jpgv', 'log', 'mp2', 'mp2a', 'mp3', 'mp4', 'mp4a', 'oga', 'ogg', 'ogv', 'ogx',
  'ppt', 'pptx', 'pptm', 'qt', 'text', 'tif', 'tiff', 'txt', 'wav', 'weba', 'webm', 'webp', 'xla', 'xlam',
  'xlc', 'xlm', 'xls', 'xlsb', 'xlsm', 'xlsx', 'xlt', 'xltm', 'xltx', 'pdf', 'png', 'rpm', 'zip', 'woff',
  'woff2', 'svgz', 'bin', 'bmp', 'eot', 'gz', 'jar', 'mpkg', 'ai', 'eps', 'dmg', 'list', 'rtx', 'uri', 'uris',
  'urls', 'css', 'dart', 'java', 'bsh', 'js', 'jsx', 'mjs', 'htc', 'json', 'ipynb', 'gltf', 'jsonml', 'ps',
  'ssml', 'wasm', 'rtf', 'cco', 'pl', 'pc', 'pm', 'pmc', 'pod', 't', 'xml', 'tld', 'dtml', 'rng', 'rss',
  'opml', 'svg', 'xaml', 'sublime-snippet', 'tmLanguage', 'tmPreferences', 'tmSnippet', 'tmTheme', 'csproj',
  'fsproj', 'sqlproj', 'vbproj', 'vcproj', 'vcxproj', 'dae', 'props', 'targets', 'xsd', 'xsl', 'xslt', 'ecma',
  'node', 'php', 'php3', 'php4', 'php5', 'php7', 'php8', 'phps', 'phpt', 'phtml', 'py', 'py3', 'pyw', 'pyi',
  'pyx', 'pyx.in', 'pxd', 'pxd.in', 'pxi', 'pxi.in', 'rpy', 'cpy', 'gyp', 'gypi', 'vpy', 'smk', 'wscript',
  'bazel', 'bzl', 'pyc', 'class', 'p', 'pas', 'curl', 'mcurl', 'go', 'swift', 'rs', 'ts', 'tsx', 'rb', 'rbi',
  'rbx', 'rjs', 'rabl', 'rake', 'capfile', 'jbuilder', 'gemspec', 'podspec', 'irbrc', 'pryrc', 'prawn', 'thor',
  'Appfile', 'Appraisals', 'Berksfile', 'Brewfile', 'Cheffile', 'Deliverfile', 'Fastfile', 'Gemfile',
  'Guardfile', 'Podfile', 'Rakefile', 'Rantfile', 'Scanfile', 'simplecov', 'Snapfile', 'Thorfile',
  'Vagrantfile', 'scala', 'sbt', 'sc', 'cmd', 'bat', 'coffee', 'erl', 'hrl', 'escript', 'lua', 'luau', 'md',
  'mdown', 'mdwn', 'markdown', 'markdn', 'matlab', 'm', 'ps1', 'sh', 'bash', 'bashrc', 'ash', 'zsh',
  '.bash_aliases', '.bash_completions', '.bash_functions', '.bash_login', '.bash_logout', '.bash_profile',
  '.bash_variables', '.profile', '.textmate_init', '.zlogin', '.zlogout', '.zprofile', '.zshenv', '.zshrc',
  'PKGBUILD', 'ebuild', 'eclass', 'r', 'sql', 'ddl', 'dml', 'tex', 'ltx', 'sty', 'cls', 'yaml', 'yml', 'toml',
  'tml', 'Cargo.lock', 'Gopkg.lock', 'Pipfile', 'poetry.lock', 'uniform_resource_locator', 'custom_url_scheme',
  'unix_file_path', 'windows_file_path', 'uniform_resource_identifier', 'hljs-1c', 'hljs-abnf',
  'hljs-accesslog', 'hljs-actionscript', 'hljs-ada', 'hljs-angelscript', 'hljs-apache', 'hljs-applescript',
  'hljs-arcade', 'hljs-arduino', 'hljs-armasm', 'hljs-asciidoc', 'hljs-aspectj', 'hljs-autohotkey',
  'hljs-autoit', 'hljs-avrasm', 'hljs-awk', 'hljs-axapta', 'hljs-bash', 'hljs-basic', 'hljs-bnf',
  'hljs-brainfuck', 'hljs-cal', 'hljs-capnproto', 'hljs-ceylon', 'hljs-clean', 'hljs-clojure-repl',
  'hljs-clojure', 'hljs-cmake', 'hljs-coffeescript', 'hljs-coq', 'hljs-cos', 'hljs-cpp', 'hljs-crmsh',
  'hljs-crystal', 'hljs-c', 'hljs-cs', 'hljs-csp', 'hljs-css', 'hljs-d', 'hljs-dart', 'hljs-delphi',
  'hljs-diff', 'hljs-django', 'hljs-dns', 'hljs-dockerfile', 'hljs-dos', 'hljs-dsconfig', 'hljs-dts',
  'hljs-dust', 'hljs-ebnf', 'hljs-elixir', 'hljs-elm', 'hljs-erb', 'hljs-erlang-repl', 'hljs-erlang',
  'hljs-excel', 'hljs-fix', 'hljs-flix', 'hljs-fortran', 'hljs-fsharp', 'hljs-gams', 'hljs-gauss',
  'hljs-gcode', 'hljs-gherkin', 'hljs-glsl', 'hljs-gml', 'hljs-go', 'hljs-golo', 'hljs-gradle', 'hljs-groovy',
  'hljs-haml', 'hljs-handlebars', 'hljs-haskell', 'hljs-haxe', 'hljs-hsp', 'hljs-htmlbars', 'hljs-http',
  'hljs-hy', 'hljs-inform7', 'hljs-ini', 'hljs-irpf90', 'hljs-isbl', 'hljs-java', 'hljs-javascript',
  'hljs-jboss-cli', 'hljs-json', 'hljs-julia-repl', 'hljs-julia', 'hljs-kotlin', 'hljs-lasso', 'hljs-ldif',
  'hljs-leaf', 'hljs-less', 'hljs-lisp', 'hljs-livecodeserver', 'hljs-livescript', 'hljs-llvm', 'hljs-lsl',
  'hljs-lua', 'hljs-makefile', 'hljs-markdown', 'hljs-mathematica', 'hljs-matlab', 'hljs-maxima', 'hljs-mel',
  'hljs-mercury', 'hljs-mipsasm', 'hljs-mizar', 'hljs-mojolicious', 'hljs-monkey', 'hljs-moonscript',
  'hljs-n1ql', 'hljs-nginx', 'hljs-nimrod', 'hljs-nix', 'hljs-nsis', 'hljs-objectivec', 'hljs-ocaml',
  'hljs-openscad', 'hljs-oxygene', 'hljs-parser3', 'hljs-perl', 'hljs-pf', 'hljs-pgsql', 'hljs-php',
  'hljs-plaintext', 'hljs-pony', 'hljs-powershell', 'hljs-processing', 'hljs-profile', 'hljs-prolog',
  'hljs-properties', 'hljs-protobuf', 'hljs-puppet', 'hljs-purebasic', 'hljs-python', 'hljs-q', 'hljs-qml',
  'hljs-r', 'hljs-reasonml', 'hljs-rib', 'hljs-roboconf', 'hljs-routeros', 'hljs-rsl', 'hljs-ruby',
  'hljs-ruleslanguage', 'hljs-rust', 'hljs-sas', 'hljs-scala', 'hljs-scheme', 'hljs-scilab', 'hljs-scss',
  'hljs-shell', 'hljs-smali', 'hljs-smalltalk', 'hljs-sml', 'hljs-sqf', 'hljs-sql', 'hljs-stan', 'hljs-stata',
  'hljs-step21', 'hljs-stylus', 'hljs-subunit', 'hljs-swift', 'hljs-taggerscript', 'hljs-tap', 'hljs-tcl',
  'hljs-tex', 'hljs-thrift', 'hljs-tp', 'hljs-twig', 'hljs-typescript', 'hljs-vala', 'hljs-vbnet',
  'hljs-vbscript-html', 'hljs-vbscript', 'hljs-verilog', 'hljs-vhdl', 'hljs-vim', 'hljs-x86asm', 'hljs-xl',
  'hljs-xml', 'hljs-xquery', 'hljs-yaml', 'hljs-toml', 'hljs-zephir', 'hljs-html', 'groovy', 'kt', 'el', 'clj',
  'ex', 'adb', 'ads', 'agda', 'elm', 'exs', 'glsl', 'ml', 'lean', 'lisp', 'rkt', 'sparql', 'vhdl', 'zig',
  'dockerfile', 'f03', 'f08', 'f18', 'f90', 'f95', 'jl', 'mm', 'scm', 'sol', 'sv', 'asp', 'cfm', 'fs', 'fsi',
  'fsx', 'tf', 'vba', 'svelte', 'vue', 'scss', 'feature', 'ini', 'ftl', 'hcl', 'abap', 'nim', 'cara',
] as const;

/** Named so that declaration files print `z.ZodEnum<ClassificationSpecificEnumMap>` instead of 505 members. */
export interface ClassificationSpecificEnumMap
  extends z.core.util.ToEnum<(typeof CLASSIFICATION_SPECIFIC_VALUES)[number]> {}
export const ClassificationSpecificEnumSchema: z.ZodEnum<ClassificationSpecificEnumMap> =
  lazySchema(() => z.enum(CLASSIFICATION_SPECIFIC_VALUES));
export type ClassificationSpecificEnum = z.infer<typeof ClassificationSpecificEnumSchema>;

const CLASSIFICATION_SPECIFIC_SET: ReadonlySet<string> = new Set(CLASSIFICATION_SPECIFIC_VALUES);

export function isClassificationSpecific(s: unknown): s is ClassificationSpecificEnum {
  return typeof s === 'string' && CLASSIFICATION_SPECIFIC_SET.has(s);
}
