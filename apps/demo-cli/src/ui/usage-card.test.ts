import type { UsageReport } from '@strata/core';
import { describe, expect, it } from 'vitest';
import { usageCard } from './usage-card.js';

const used = { inputTokens: 1234, outputTokens: 56, calls: 3 };
const report = (over: Partial<UsageReport>): UsageReport => ({
  namespace: 'maya',
  jobs: 0,
  jobsWithUsage: 0,
  total: { inputTokens: 0, outputTokens: 0, calls: 0 },
  byJobType: {},
  byModel: {},
  bySession: {},
  ...over,
});

describe('the usage card of a session page', () => {
  it('shows the session by job type and by model, escaping model names, and the namespace total', async () => {
    const name = '<img src=x onerror=alert(1)>&"';
    const card = String(
      await usageCard({
        session: report({ sessionId: 'ses_1', jobs: 4, jobsWithUsage: 3, total: used, byJobType: { ingest: used }, byModel: { [name]: used }, bySession: { ses_1: used } }),
        namespace: report({ jobs: 9, jobsWithUsage: 5, total: { inputTokens: 20_000, outputTokens: 900, calls: 1 }, bySession: { ses_1: used, ses_2: used } }),
      }),
    );
    expect(card).not.toContain('<img');
    expect(card).toContain('<td>&lt;img src=x onerror=alert(1)&gt;&amp;&quot;</td><td>1,234</td><td>56</td><td>3</td>');
    expect(card).toContain('data-name="&lt;img src=x onerror=alert(1)&gt;&amp;&quot;"');
    expect(card).toContain('<td>job type</td><td>ingest</td><td>1,234</td><td>56</td><td>3</td>');
    expect(card).toContain('<td>total</td><td>this session</td><td>1,234</td><td>56</td><td>3</td>');
    expect(card).toContain('3 of 4 applied jobs reported usage');
    expect(card).toContain('<p id="usage-namespace">namespace maya: 20,000 tokens in, 900 out, 1 call over 2 sessions</p>');
    expect(card).not.toContain('no model calls');
  });

  it('says in one line that no model was called, with no table and no namespace total', async () => {
    const card = String(await usageCard({ session: report({ sessionId: 'ses_1', jobs: 4 }), namespace: report({ jobs: 4 }) }));
    expect(card).toContain('<p class="dim" id="usage-none">no model calls: derivation ran on the offline models</p>');
    expect(card).not.toContain('<table');
    expect(card).not.toContain('usage-namespace');
  });

  it('still gives the namespace total when only other sessions called a model', async () => {
    const card = String(await usageCard({ session: report({ sessionId: 'ses_2', jobs: 2 }), namespace: report({ jobs: 6, jobsWithUsage: 3, total: used, bySession: { ses_1: used } }) }));
    expect(card).toContain('no model calls: derivation ran on the offline models');
    expect(card).toContain('namespace maya: 1,234 tokens in, 56 out, 3 calls over 1 session');
  });
});
