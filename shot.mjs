import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
await p.goto(process.argv[2]); await p.waitForTimeout(4000);
await p.screenshot({ path: process.argv[3] }); await b.close();
