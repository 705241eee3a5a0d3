import type { Nats } from '@vigil/platform';
import type { SessionTokens } from '../credentials/session-tokens.service.js';
import { LiveStreams } from './live-streams.js';

const USER = '11111111-1111-4111-8111-111111111111';
const OTHER_USER = '22222222-2222-4222-8222-222222222222';
const CLIENT = '33333333-3333-4333-8333-333333333333';
const sid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function setup(cap = 2, ended: ReadonlySet<string> = new Set()) {
  const tokens = { hasEnded: (sessionId: string) => ended.has(sessionId) };
  const sut = new LiveStreams({} as Nats, tokens as unknown as SessionTokens, { LIVE_STREAMS_PER_USER: cap });
  const closed: string[] = [];
  const open = (name: string, userId = USER, sessionId = sid(1)) =>
    sut.register({ userId, sessionId, clientId: CLIENT }, () => closed.push(name));
  return { sut, ended: closed, open };
}

describe('LiveStreams', () => {
  it('ends a user’s oldest stream beyond the cap, and only theirs', () => {
    const { ended, open } = setup(2);
    open('a');
    open('other', OTHER_USER);
    open('b');
    expect(ended).toEqual([]);
    open('c');
    expect(ended).toEqual(['a']);
  });

  it('does not count a stream that was released', () => {
    const { ended, open } = setup(1);
    const release = open('a');
    release();
    open('b');
    expect(ended).toEqual([]);
  });

  it('ends the streams of a revoked session, not those of the user’s other sessions', () => {
    const { sut, ended, open } = setup(5);
    open('a', USER, sid(1));
    open('b', USER, sid(2));
    sut.onSessionRevoked({ session_id: sid(1), user_id: USER, reason: 'logout', revoked_at: new Date().toISOString() });
    expect(ended).toEqual(['a']);
  });

  it('ends at once a stream whose session was revoked after its token was checked', () => {
    const { ended, open } = setup(5, new Set([sid(9)]));
    open('late', USER, sid(9));
    open('live', USER, sid(1));
    expect(ended).toEqual(['late']);
  });

  it('ends a member’s streams when they leave the client, not when their role changes', () => {
    const { sut, ended, open } = setup(5);
    open('a');
    const changedAt = new Date().toISOString();
    sut.onMemberChanged({ user_id: USER, client_id: CLIENT, member_role: 'viewer', changed_at: changedAt });
    expect(ended).toEqual([]);
    sut.onMemberChanged({ user_id: USER, client_id: null, member_role: null, changed_at: changedAt });
    expect(ended).toEqual(['a']);
  });

  it('ends a stream opened with a key when that key is revoked, caps streams per key, ends all on client deletion', () => {
    const { sut, ended, open } = setup(2);
    const byKey = (name: string, keyHash: string) =>
      sut.register({ keyHash, clientId: CLIENT }, () => ended.push(name));
    const revoked = (keyHash: string, reason: 'revoked' | 'client_deleted') => ({
      clientId: CLIENT,
      keyId: sid(7),
      keyHash,
      keyPrefix: 'abcd1234',
      reason,
      revokedAt: new Date().toISOString(),
    });
    byKey('k1', 'a'.repeat(64));
    byKey('k2', 'a'.repeat(64));
    byKey('other-key', 'b'.repeat(64));
    open('session');
    byKey('k3', 'a'.repeat(64));
    expect(ended).toEqual(['k1']);
    sut.onKeyRevoked(revoked('a'.repeat(64), 'revoked'));
    expect(ended).toEqual(['k1', 'k2', 'k3']);
    sut.onKeyRevoked(revoked('c'.repeat(64), 'client_deleted'));
    expect(ended).toEqual(['k1', 'k2', 'k3', 'other-key', 'session']);
  });
});
