/**
 * The web-platform globals the core may use beyond the ES libs: those every host has, the service worker
 * and Node alike (fetch, Request, Response, URL, streams, encoding, timers, crypto, console, performance).
 * Node's types declare them (transformers.js's types load them anyway); what only Node has (`process`,
 * `Buffer`, `node:*`) test/unit/architecture.test.ts refuses in the core. worker/core/tsconfig.json
 * typechecks the core with these and the ES libs only, so a browser-only global (`caches`, `location`,
 * `self`, the DOM) does not compile there.
 */
/// <reference types="node" />
