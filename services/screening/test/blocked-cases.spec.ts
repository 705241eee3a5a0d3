import { jest } from '@jest/globals';
import {
  contracts,
  type Contract,
  type ListsResponse,
  type ReplyOf,
  type RequestOf,
  type ReviewActor,
  type ScreenResponse,
} from '@vigil/proto';
import { writeV1 } from './fixture-lists.js';
import { Harness, eventually } from './harness.js';

jest.setTimeout(120_000);

const FEEDS = ['ofac', 'peps', 'sanctions'] as const;
const caller = (clientId: string) => ({ clientId, tier: 'large' as const, feeds: [...FEEDS] });
const member = (name: string, memberRole: ReviewActor['memberRole']): ReviewActor => ({
  userId: `user-${name}`,
  email: `${name}@bank.example`,
  memberRole,
});
const analyst = member('analyst', 'analyst');
const supervisor = member('supervisor', 'supervisor');
const secondSupervisor = member('supervisor2', 'supervisor');

// The listed person's own name and birth date: blocked outright.
const LISTED = { name: 'Viktor Bout', dateOfBirth: '1967-01-13' };

describe('every hit reviewable: a blocked screening opens a case to confirm or overturn (issue #36)', () => {
  const h = new Harness();

  async function ok<C extends Contract>(contract: C, data: RequestOf<C>): Promise<ReplyOf<C>> {
    const reply = await h.request(contract, data, 30_000);
    if (!reply.ok) throw new Error(`${contract.subject}: ${reply.error.code} ${reply.error.message}`);
    return reply.value;
  }
  const screen = (clientId: string) =>
    ok(contracts.screening.screen, { ...caller(clientId), entity: LISTED }) as Promise<ScreenResponse>;
  const caseOf = async (clientId: string, screeningId: string) => {
    const { reviews } = await ok(contracts.screening.reviews, { clientId });
    const alerts = await ok(contracts.screening.alerts, { clientId });
    const logs = await ok(contracts.screening.logs, { clientId });
    return {
      reviews,
      alert: alerts.alerts.find((a) => a.full_name === LISTED.name)!,
      unreviewed: alerts.unreviewed,
      log: logs.logs.find((l) => l.id === screeningId)!,
    };
  };

  beforeAll(async () => {
    await h.start();
    const dir = await h.tempDir();
    await writeV1(dir);
    h.startService({ LISTS_DIR: dir, INDEX_RECONCILE_SECONDS: '3600' });
    await h.waitForResponders();
    await eventually(
      () => h.value<ListsResponse>('screening.v1.lists', {}),
      (r) => r.lists.length === 3 && r.lists.every((l) => l.status === 'active'),
    );
  });
  afterAll(() => h.stop());

  it('opens a pending case for a blocked screening, with its case file', async () => {
    const screened = await screen('c-block-case');
    expect(screened.status).toBe('blocked');
    const { reviews, alert, unreviewed } = await caseOf('c-block-case', screened.screeningId);
    expect(reviews).toEqual([
      expect.objectContaining({ status: 'pending', raised_as: 'blocked', searched_input: LISTED.name }),
    ]);
    expect(alert).toMatchObject({ reviewed: false, review_outcome: null, review: null });
    expect(unreviewed).toBe(1);
    const pane = await ok(contracts.screening.reviewCase, { clientId: 'c-block-case', id: reviews[0]!.id });
    expect(pane.searched.dateOfBirth).toBe(LISTED.dateOfBirth);
    expect(pane.entry?.datesOfBirth).toContain(LISTED.dateOfBirth);
  });

  it('overturning a block clears the screening and marks its alert reviewed: who, when, why; nothing is remembered', async () => {
    const client = 'c-block-overturn';
    const screened = await screen(client);
    const before = await caseOf(client, screened.screeningId);
    const decided = await ok(contracts.screening.decideReview, {
      clientId: client,
      id: before.reviews[0]!.id,
      action: 'approve',
      reasonCode: 'different_person_dob',
      note: 'Passport seen: born 1991.',
      actor: analyst,
    });
    expect(decided).toMatchObject({ outcome: 'decided', rememberedId: null, review: { status: 'approved' } });
    const after = await caseOf(client, screened.screeningId);
    expect(after.log).toMatchObject({
      status: 'clear',
      cleared: {
        at: expect.any(String),
        by_email: analyst.email,
        reason_code: 'different_person_dob',
        note: 'Passport seen: born 1991.',
      },
    });
    expect(after.alert).toMatchObject({
      reviewed: true,
      review_outcome: 'cleared',
      review: { by_email: analyst.email, reason_code: 'different_person_dob', note: 'Passport seen: born 1991.' },
    });
    expect(after.unreviewed).toBe(0);
    // A block is never suppressed by memory: the same screen is blocked again, with a new case.
    expect((await screen(client)).status).toBe('blocked');
  });

  it('confirming a block keeps it blocked and marks the alert reviewed as confirmed', async () => {
    const client = 'c-block-confirm';
    const screened = await screen(client);
    const { reviews } = await caseOf(client, screened.screeningId);
    await ok(contracts.screening.decideReview, {
      clientId: client,
      id: reviews[0]!.id,
      action: 'block',
      reasonCode: 'confirmed_match',
      actor: analyst,
    });
    const after = await caseOf(client, screened.screeningId);
    expect(after.log).toMatchObject({ status: 'blocked', cleared: null });
    expect(after.alert).toMatchObject({ reviewed: true, review_outcome: 'confirmed' });
  });

  it('under four-eyes an overturn is only a proposal until a second supervisor confirms it', async () => {
    const client = 'c-block-four-eyes';
    await ok(contracts.screening.updateReviewSettings, { clientId: client, fourEyes: true, actor: supervisor });
    const screened = await screen(client);
    const { reviews } = await caseOf(client, screened.screeningId);
    const proposed = await ok(contracts.screening.decideReview, {
      clientId: client,
      id: reviews[0]!.id,
      action: 'approve',
      reasonCode: 'name_only_coincidence',
      actor: supervisor,
    });
    expect(proposed.outcome).toBe('proposed');
    const pending = await caseOf(client, screened.screeningId);
    expect(pending.log).toMatchObject({ status: 'blocked', cleared: null });
    expect(pending.alert.reviewed).toBe(false);

    await ok(contracts.screening.confirmReview, { clientId: client, id: reviews[0]!.id, actor: secondSupervisor });
    const confirmed = await caseOf(client, screened.screeningId);
    expect(confirmed.log).toMatchObject({ status: 'clear', cleared: { by_email: secondSupervisor.email } });
    expect(confirmed.alert).toMatchObject({ reviewed: true, review_outcome: 'cleared' });
  });
});
