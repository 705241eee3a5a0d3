import { jest } from '@jest/globals';
import {
  contracts,
  streams,
  subjects,
  type ListsResponse,
  type MemoryChangedEvent,
  type Contract,
  type ReplyOf,
  type RequestOf,
  type Review,
  type ReviewActor,
  type ReviewDecidedEvent,
  type ReviewSettingsChangedEvent,
  type ScreenResponse,
} from '@vigil/proto';
import { SDN_V1, writeSdn, writeV1 } from './fixture-lists.js';
import { Harness, eventually, type ServiceProcess } from './harness.js';
import { writeFile } from 'node:fs/promises';

jest.setTimeout(120_000);

const FEEDS = ['ofac', 'peps', 'sanctions'] as const;
const caller = (clientId: string) => ({ clientId, tier: 'large' as const, feeds: [...FEEDS] });

const member = (name: string, memberRole: ReviewActor['memberRole']): ReviewActor => ({
  userId: `user-${name}`,
  email: `${name}@bank.example`,
  memberRole,
});
const analyst = member('analyst', 'analyst');
const viewer = member('viewer', 'viewer');
const supervisor = member('supervisor', 'supervisor');
const secondSupervisor = member('supervisor2', 'supervisor');
const owner = member('owner', 'owner');

// The listed person (ofac-sdn:101) is born 13 Jan 1967; the customer is someone else of that name.
const CUSTOMER = { name: 'Viktor Bout', dateOfBirth: '1991-06-02' };
const LISTED_DOB = '1967-01-13';

describe('case work on the review queue: reasons, four-eyes, false-positive memory', () => {
  const h = new Harness();
  let dir: string;
  let service: ServiceProcess;

  async function ok<C extends Contract>(contract: C, data: RequestOf<C>): Promise<ReplyOf<C>> {
    const reply = await h.request(contract, data, 30_000);
    if (!reply.ok) throw new Error(`${contract.subject}: ${reply.error.code} ${reply.error.message}`);
    return reply.value;
  }
  const refused = async <C extends Contract>(contract: C, data: RequestOf<C>) => {
    const reply = await h.request(contract, data, 30_000);
    if (reply.ok) throw new Error(`${contract.subject} was accepted`);
    return reply.error;
  };
  const screen = (clientId: string, entity: RequestOf<typeof contracts.screening.screen>['entity']) =>
    ok(contracts.screening.screen, { ...caller(clientId), entity }) as Promise<ScreenResponse>;
  const queue = (clientId: string, status?: Review['status']) =>
    ok(contracts.screening.reviews, { clientId, ...(status ? { status } : {}) });
  /** The newest review of a client for a searched name (reviews are listed newest first). */
  const newestReview = async (clientId: string, searched: string) =>
    (await queue(clientId)).reviews.find((r) => r.searched_input === searched);

  beforeAll(async () => {
    await h.start();
    dir = await h.tempDir();
    await writeV1(dir);
    service = h.startService({ LISTS_DIR: dir, INDEX_RECONCILE_SECONDS: '3600' });
    await h.waitForResponders();
    await eventually(
      () => h.value<ListsResponse>('screening.v1.lists', {}),
      (r) => r.lists.length === 3 && r.lists.every((l) => l.status === 'active'),
    );
    await eventually(
      () => h.request(contracts.screening.screen, { ...caller('probe'), entity: { name: 'x' } }),
      (r) => r.ok,
    );
  });
  afterAll(async () => {
    if (process.env.REVIEWS_SERVICE_LOG) await writeFile(process.env.REVIEWS_SERVICE_LOG, service.output);
    await h.stop();
  });

  it('puts the customer in the review band and the listed person in the block band (the premise of the rest)', async () => {
    expect((await screen('premise', CUSTOMER)).status).toBe('review');
    expect((await screen('premise', { name: CUSTOMER.name, dateOfBirth: LISTED_DOB })).status).toBe('blocked');
  });

  it('refuses a decision without a reason code, with a reason of the other action, or "other" without a note', async () => {
    await screen('c-reasons', CUSTOMER);
    const review = (await newestReview('c-reasons', CUSTOMER.name))!;
    const base = { clientId: 'c-reasons', id: review.id, actor: analyst };
    const missing = await refused(contracts.screening.decideReview, { ...base, action: 'approve' } as never);
    expect(missing.code).toBe('VALIDATION_FAILED');
    expect(missing.errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer: '/reasonCode' })]));
    const wrongList = await refused(contracts.screening.decideReview, {
      ...base,
      action: 'approve',
      reasonCode: 'confirmed_match',
    });
    expect(wrongList.errors).toEqual([expect.objectContaining({ pointer: '/reasonCode' })]);
    const noNote = await refused(contracts.screening.decideReview, { ...base, action: 'block', reasonCode: 'other' });
    expect(noNote.errors).toEqual([expect.objectContaining({ pointer: '/note' })]);
    expect(
      (
        await refused(contracts.screening.decideReview, {
          ...base,
          actor: viewer,
          action: 'block',
          reasonCode: 'confirmed_match',
        })
      ).code,
    ).toBe('ROLE_FORBIDDEN');
    expect((await newestReview('c-reasons', CUSTOMER.name))!.status).toBe('pending');

    const decided = await ok(contracts.screening.decideReview, {
      ...base,
      action: 'block',
      reasonCode: 'other',
      note: 'Escalated to the MLRO by phone.',
    });
    expect(decided).toMatchObject({ outcome: 'decided', rememberedId: null });
    const stored = (await newestReview('c-reasons', CUSTOMER.name))!;
    expect(stored).toMatchObject({
      status: 'blocked',
      decided_by_id: analyst.userId,
      decided_by_email: analyst.email,
      reason_code: 'other',
      note: 'Escalated to the MLRO by phone.',
      decided_at: expect.any(String),
    });
    const again = await refused(contracts.screening.decideReview, {
      ...base,
      action: 'approve',
      reasonCode: 'other',
      note: 'x',
    });
    expect(again.code).toBe('CONFLICT');
  });

  it('remembers a false positive: the same query comes back clear with suppressedBy and raises no review; any other query is still flagged; revoking stops it', async () => {
    const client = 'c-memory';
    const first = await screen(client, CUSTOMER);
    expect(first.status).toBe('review');
    const review = (await newestReview(client, CUSTOMER.name))!;
    const approved = await ok(contracts.screening.decideReview, {
      clientId: client,
      id: review.id,
      action: 'approve',
      reasonCode: 'different_person_dob',
      note: 'Customer born 1991; the listed person in 1967.',
      actor: analyst,
    });
    expect(approved.outcome).toBe('decided');
    expect(approved.rememberedId).toEqual(expect.any(String));
    const reviewsBefore = (await queue(client)).counts.all;

    const again = await screen(client, CUSTOMER);
    expect(again).toMatchObject({ status: 'clear', match: false, blocked: false, topScore: first.topScore });
    expect(again.results[0]).toMatchObject({
      id: first.results[0]!.id,
      status: 'clear',
      suppressedBy: review.id,
      score: first.results[0]!.score,
    });
    // Case and spacing do not make another name.
    const respelt = await screen(client, { ...CUSTOMER, name: '  viktor  BOUT ' });
    expect(respelt).toMatchObject({ status: 'clear' });
    expect(respelt.results[0]!.suppressedBy).toBe(review.id);
    expect((await queue(client)).counts.all).toBe(reviewsBefore);

    // Anything else in the key is another question: the listed person's own birth date, a
    // country, a customer reference, or another client.
    expect((await screen(client, { name: CUSTOMER.name, dateOfBirth: LISTED_DOB })).status).not.toBe('clear');
    expect((await screen(client, { ...CUSTOMER, customerReference: 'CUST-42' })).status).toBe('review');
    expect((await screen(client, { ...CUSTOMER, nationality: 'RU' })).status).not.toBe('clear');
    expect((await screen('c-memory-other', CUSTOMER)).status).toBe('review');

    const listed = await ok(contracts.screening.remembered, { clientId: client });
    expect(listed.remembered).toEqual([
      expect.objectContaining({
        id: approved.rememberedId,
        review_id: review.id,
        searched_name: CUSTOMER.name,
        date_of_birth: CUSTOMER.dateOfBirth,
        country: null,
        customer_reference: null,
        entity_id: 'ofac-sdn:101',
        reason_code: 'different_person_dob',
        created_by_email: analyst.email,
      }),
    ]);
    expect((await ok(contracts.screening.remembered, { clientId: 'c-memory-other' })).remembered).toEqual([]);
    expect(
      (
        await refused(contracts.screening.revokeRemembered, {
          clientId: 'c-memory-other',
          id: approved.rememberedId!,
          actor: owner,
        })
      ).code,
    ).toBe('NOT_FOUND');
    expect(
      (
        await refused(contracts.screening.revokeRemembered, {
          clientId: client,
          id: approved.rememberedId!,
          actor: viewer,
        })
      ).code,
    ).toBe('ROLE_FORBIDDEN');

    const revoked = await ok(contracts.screening.revokeRemembered, {
      clientId: client,
      id: approved.rememberedId!,
      actor: analyst,
    });
    expect(revoked.revoked).toMatchObject({ id: approved.rememberedId, revoked_by_email: analyst.email });
    expect((await ok(contracts.screening.remembered, { clientId: client })).remembered).toEqual([]);
    const afterRevoke = await screen(client, CUSTOMER);
    expect(afterRevoke.status).toBe('review');
    expect(afterRevoke.results[0]!.suppressedBy).toBeUndefined();
    expect(
      (
        await refused(contracts.screening.revokeRemembered, {
          clientId: client,
          id: approved.rememberedId!,
          actor: analyst,
        })
      ).code,
    ).toBe('CONFLICT');

    const { value: events } = await eventually(
      () => h.streamMessages<MemoryChangedEvent>(streams.screenings.name, subjects.screening.memoryChanged),
      (e) => e.filter((x) => x.memoryId === approved.rememberedId).length === 2,
    );
    expect(events.filter((x) => x.memoryId === approved.rememberedId).map((x) => [x.change, x.actorEmail])).toEqual([
      ['created', analyst.email],
      ['revoked', analyst.email],
    ]);
  });

  it('shows the case: the searched input beside the list entry, the matched tokens, and earlier decisions on the entity', async () => {
    const client = 'c-case';
    await screen(client, { ...CUSTOMER, customerReference: 'CUST-1' });
    const earlier = (await newestReview(client, CUSTOMER.name))!;
    await ok(contracts.screening.decideReview, {
      clientId: client,
      id: earlier.id,
      action: 'approve',
      reasonCode: 'name_only_coincidence',
      actor: analyst,
    });
    await screen(client, { name: CUSTOMER.name, dateOfBirth: '1985', customerReference: 'CUST-2' });
    const current = (await newestReview(client, CUSTOMER.name))!;
    expect(current.id).not.toBe(earlier.id);

    const kase = await ok(contracts.screening.reviewCase, { clientId: client, id: current.id });
    expect(kase.searched).toEqual({
      name: CUSTOMER.name,
      email: null,
      dateOfBirth: '1985',
      country: null,
      entityType: null,
      customerReference: 'CUST-2',
    });
    expect(kase.entry).toMatchObject({
      entityId: 'ofac-sdn:101',
      names: expect.arrayContaining(['BOUT, Viktor Anatolyevich']),
      datesOfBirth: [LISTED_DOB],
      source: 'ofac-sdn',
      listVersion: { source: 'ofac-sdn', versionId: expect.any(Number) },
    });
    expect(kase.explanation!.tokens.length).toBeGreaterThan(0);
    expect(kase.explanation!.qualifiers.map((q) => q.qualifier)).toContain('dob');
    expect(kase.previousDecisions).toEqual([
      expect.objectContaining({
        review_id: earlier.id,
        status: 'approved',
        reason_code: 'name_only_coincidence',
        decided_by_email: analyst.email,
      }),
    ]);
    expect(kase.remembered).toBeNull();
    expect((await refused(contracts.screening.reviewCase, { clientId: 'c-case-other', id: current.id })).code).toBe(
      'NOT_FOUND',
    );
  });

  it('four-eyes: a decision becomes a proposal; the proposer cannot confirm it, an analyst cannot confirm at all, a second supervisor can', async () => {
    const client = 'c-four-eyes';
    expect((await ok(contracts.screening.reviewSettings, { clientId: client })).fourEyes).toBe(false);
    expect(
      (await refused(contracts.screening.updateReviewSettings, { clientId: client, fourEyes: true, actor: analyst }))
        .code,
    ).toBe('ROLE_FORBIDDEN');
    expect(
      await ok(contracts.screening.updateReviewSettings, { clientId: client, fourEyes: true, actor: owner }),
    ).toMatchObject({
      fourEyes: true,
      updated_by_email: owner.email,
    });
    expect((await ok(contracts.screening.reviewSettings, { clientId: 'c-four-eyes-other' })).fourEyes).toBe(false);

    await screen(client, CUSTOMER);
    const review = (await newestReview(client, CUSTOMER.name))!;
    const proposed = await ok(contracts.screening.decideReview, {
      clientId: client,
      id: review.id,
      action: 'approve',
      reasonCode: 'different_person_dob',
      actor: supervisor,
    });
    expect(proposed).toMatchObject({ outcome: 'proposed', rememberedId: null });
    expect(proposed.review).toMatchObject({
      status: 'proposed',
      proposed_action: 'approve',
      proposed_by_email: supervisor.email,
      decided_by_email: null,
      decided_at: null,
    });
    const listed = await queue(client, 'proposed');
    expect(listed.reviews.map((r) => r.id)).toEqual([review.id]);
    expect(listed.counts).toMatchObject({ proposed: 1, pending: 0 });
    // Not decided yet: the memory is made on confirmation, so the screen is still flagged.
    expect((await screen(client, CUSTOMER)).status).toBe('review');
    const second = (await newestReview(client, CUSTOMER.name))!;

    const base = { clientId: client, id: review.id };
    expect(
      (
        await refused(contracts.screening.decideReview, {
          ...base,
          action: 'block',
          reasonCode: 'confirmed_match',
          actor: analyst,
        })
      ).code,
    ).toBe('CONFLICT');
    expect((await refused(contracts.screening.confirmReview, { ...base, actor: supervisor })).code).toBe(
      'FOUR_EYES_SELF_CONFIRM',
    );
    expect((await refused(contracts.screening.confirmReview, { ...base, actor: analyst })).code).toBe('ROLE_FORBIDDEN');
    expect(
      (await refused(contracts.screening.confirmReview, { clientId: 'c-four-eyes-other', id: review.id, actor: owner }))
        .code,
    ).toBe('NOT_FOUND');
    const confirmed = await ok(contracts.screening.confirmReview, { ...base, actor: secondSupervisor });
    expect(confirmed.review).toMatchObject({
      status: 'approved',
      reason_code: 'different_person_dob',
      proposed_by_email: supervisor.email,
      decided_by_email: secondSupervisor.email,
      decided_at: expect.any(String),
    });
    expect(confirmed.rememberedId).toEqual(expect.any(String));
    expect((await refused(contracts.screening.confirmReview, { ...base, actor: owner })).code).toBe('CONFLICT');
    expect((await screen(client, CUSTOMER)).results[0]!.suppressedBy).toBe(review.id);

    // An analyst's proposal sent back by a supervisor returns to the queue.
    await ok(contracts.screening.decideReview, {
      clientId: client,
      id: second.id,
      action: 'block',
      reasonCode: 'likely_match_escalated',
      actor: analyst,
    });
    expect(
      (await refused(contracts.screening.returnReview, { clientId: client, id: second.id, actor: viewer })).code,
    ).toBe('ROLE_FORBIDDEN');
    const returned = await ok(contracts.screening.returnReview, {
      clientId: client,
      id: second.id,
      note: 'Check the passport first.',
      actor: owner,
    });
    expect(returned.review).toMatchObject({
      status: 'pending',
      proposed_action: null,
      proposed_by_email: null,
      reason_code: null,
    });

    const { value: steps } = await eventually(
      () => h.streamMessages<ReviewDecidedEvent>(streams.screenings.name, subjects.screening.reviewDecided),
      (e) => e.filter((x) => x.clientId === client).length === 4,
    );
    expect(
      steps
        .filter((x) => x.clientId === client)
        .map((x) => [x.reviewId === review.id ? 'first' : 'second', x.step, x.decision, x.actorEmail]),
    ).toEqual([
      ['first', 'proposed', 'approved', supervisor.email],
      ['first', 'confirmed', 'approved', secondSupervisor.email],
      ['second', 'proposed', 'blocked', analyst.email],
      ['second', 'returned', 'blocked', owner.email],
    ]);
  });

  it('puts every four-eyes switch on the audit stream, naming who switched it', async () => {
    const client = 'c-four-eyes-switch';
    const set = (fourEyes: boolean, actor: ReviewActor) =>
      ok(contracts.screening.updateReviewSettings, { clientId: client, fourEyes, actor });
    // On, then off to decide alone, then on again: each switch is on the trail, not only the last state.
    await set(true, owner);
    await set(false, supervisor);
    await set(true, supervisor);
    expect(
      (await refused(contracts.screening.updateReviewSettings, { clientId: client, fourEyes: false, actor: analyst }))
        .code,
    ).toBe('ROLE_FORBIDDEN');

    const { value: switches } = await eventually(
      () =>
        h.streamMessages<ReviewSettingsChangedEvent>(streams.screenings.name, subjects.screening.reviewSettingsChanged),
      (e) => e.filter((x) => x.clientId === client).length >= 3,
      15_000,
    );
    expect(
      switches
        .filter((x) => x.clientId === client)
        .map((x) => [x.previousFourEyes, x.fourEyes, x.actorId, x.actorEmail, x.actorRole]),
    ).toEqual([
      [false, true, owner.userId, owner.email, 'owner'],
      [true, false, supervisor.userId, supervisor.email, 'supervisor'],
      [false, true, supervisor.userId, supervisor.email, 'supervisor'],
    ]);
  });

  it('stops suppressing on every replica as soon as a memory is revoked, not when a cache expires', async () => {
    const replica = h.startService({ LISTS_DIR: dir, INDEX_RECONCILE_SECONDS: '3600' });
    const client = 'c-replicas';
    await screen(client, CUSTOMER);
    const review = (await newestReview(client, CUSTOMER.name))!;
    const { rememberedId } = await ok(contracts.screening.decideReview, {
      clientId: client,
      id: review.id,
      action: 'approve',
      reasonCode: 'different_person_dob',
      actor: analyst,
    });
    // Requests are shared between the replicas at random: enough screens reach both, so both
    // have cached the memory before it is revoked.
    await replica.waitForLog(/index ready/, 60_000);
    for (let i = 0; i < 16; i++) expect((await screen(client, CUSTOMER)).status).toBe('clear');
    await ok(contracts.screening.revokeRemembered, { clientId: client, id: rememberedId!, actor: analyst });
    // The memory-changed event reaches the other replica within moments (the cache would keep it a minute).
    await eventually(
      async () => (await Promise.all(Array.from({ length: 16 }, () => screen(client, CUSTOMER)))).map((r) => r.status),
      (statuses) => statuses.every((s) => s === 'review'),
      5_000,
    );
    await h.stopService(replica);
  });

  it('raises a remembered hit again, with a note, once a new list version changes the entity’s date of birth', async () => {
    const client = 'c-list-change';
    await screen(client, CUSTOMER);
    const review = (await newestReview(client, CUSTOMER.name))!;
    await ok(contracts.screening.decideReview, {
      clientId: client,
      id: review.id,
      action: 'approve',
      reasonCode: 'different_person_dob',
      actor: analyst,
    });
    expect((await screen(client, CUSTOMER)).results[0]!.suppressedBy).toBe(review.id);

    await writeSdn(
      dir,
      SDN_V1.map((r) => (r.id === 101 ? { ...r, remarks: 'DOB 14 Jan 1967; nationality Russia.' } : r)),
      [[101, 'BUT, Viktor']],
    );
    const [refreshed] = (await ok(contracts.screening.refresh, { sources: ['ofac-sdn'] })).results;
    expect(refreshed).toMatchObject({ outcome: 'updated', delta: { changed: 1 } });
    const { value: raised } = await eventually(
      () => screen(client, CUSTOMER),
      (r) => r.results[0]?.suppressedBy === undefined,
    );
    expect(raised.status).toBe('review');
    expect(raised.results[0]!.memoryNote).toMatch(new RegExp(`review ${review.id} no longer applies`));
    const newest = (await newestReview(client, CUSTOMER.name))!;
    expect(newest.id).not.toBe(review.id);
    expect(newest.memory_note).toMatch(/no longer applies: the list entry changed/);
  });
});
