// Regression suite for content extraction: saved pages in e2e/fixtures/pages/*.html and the
// expected markdown, readability and text output beside each. A library upgrade or a change to
// the extraction shows up here as a diff. After a deliberate change, regenerate the expected
// files with UPDATE_FIXTURES=1 and review the diff before committing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { routerKey } from '../support/connect';
import { dataApi, expectStatus } from '../support/data-api';
import { addProvider } from '../support/providers';
import { FIXTURE_PAGES, startTestSite, type TestSite } from '../support/test-site';

const UPDATE = process.env.UPDATE_FIXTURES === '1';
/** The site's port changes every run; expected files name it like this. */
const SITE = 'http://site.test';

let browser: Chromium;
let site: TestSite;
let key: string;

before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
  const user = await newUser('fixtures');
  await addProvider(user.workspaceId, user.routerId, { slug: 'chromium', url: browser.wsUrl });
  key = await routerKey(user.workspaceId, user.routerId);
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close()]);
});

const pages = readdirSync(FIXTURE_PAGES)
  .filter((name) => name.endsWith('.html'))
  .map((name) => name.slice(0, -'.html'.length));

for (const name of pages) {
  test(`fixture ${name}: markdown, readability, text, metadata and links match the saved output`, async () => {
    const res = expectStatus(await dataApi('content', key, { url: `${site.url}/fixtures/${name}.html`, formats: ['markdown', 'readability', 'text'] }), 200);
    const normalize = (value: string) => value.replaceAll(site.url, SITE);
    const { content, metadata, links } = res.json.data;
    const outputs: Record<string, string> = {
      'markdown.md': `${normalize(content.markdown)}\n`,
      'readability.md': `${normalize(content.readability)}\n`,
      'text.txt': `${normalize(content.text)}\n`,
      'meta.json': `${normalize(JSON.stringify({ metadata, links }, null, 2))}\n`,
    };
    const created: string[] = [];
    for (const [suffix, actual] of Object.entries(outputs)) {
      const file = path.join(FIXTURE_PAGES, `${name}.${suffix}`);
      if (UPDATE || !existsSync(file)) {
        if (!UPDATE) created.push(file);
        writeFileSync(file, actual);
        continue;
      }
      assert.equal(actual, readFileSync(file, 'utf8'), `${name}.${suffix} differs from the saved output (UPDATE_FIXTURES=1 regenerates it)`);
    }
    if (created.length > 0) assert.fail(`no saved output yet; written now, review and run again: ${created.join(', ')}`);
  });
}
