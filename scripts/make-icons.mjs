// Renders public/icon.svg into the PNG icons the manifest lists (192, 512, and a maskable 512 whose
// artwork sits inside the 80% safe zone on a full-bleed background). Run by hand after changing the
// icon: `node scripts/make-icons.mjs` (needs Debian's chromium); the PNGs are committed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const publicDir = fileURLToPath(new URL('../public/', import.meta.url));
const svg = readFileSync(`${publicDir}icon.svg`, 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const page = await browser.newPage();
const icons = [
  { file: 'icon-192.png', size: 192, inset: 0, background: 'transparent' },
  { file: 'icon-512.png', size: 512, inset: 0, background: 'transparent' },
  { file: 'icon-maskable-512.png', size: 512, inset: 0.12, background: '#1e1b4b' },
];
for (const { file, size, inset, background } of icons) {
  await page.setViewportSize({ width: size, height: size });
  const pad = Math.round(size * inset);
  await page.setContent(
    `<body style="margin:0;background:${background}"><div style="padding:${pad}px;width:${size}px;height:${size}px;box-sizing:border-box">${svg.replace('<svg ', '<svg width="100%" height="100%" ')}</div></body>`,
  );
  await page.screenshot({ path: `${publicDir}${file}`, omitBackground: background === 'transparent' });
}
await browser.close();
console.log(`wrote ${icons.map((i) => i.file).join(', ')}`);
