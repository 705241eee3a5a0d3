import { monitoringPushSchema, type MonitoringPush } from '@vigil/proto';
import { useEffect, useRef, useState } from 'react';
import { gatewayApi } from '../api/gateway-api.js';
import { parseSseFrames } from './sse-frames.js';
import { useAppDispatch, useAppSelector } from '../app/hooks.js';

const STREAM_URL = `${import.meta.env.VITE_GATEWAY_URL ?? ''}/api/monitoring/stream`;
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000] as const;

/** `live`: subscribed; `unavailable`: the plan has no live updates (§9: medium and up). */
export type LiveState = 'connecting' | 'live' | 'unavailable' | 'offline';

/**
 * The dashboard's live push: the gateway's `/api/monitoring/stream` read with the session's bearer
 * token (an EventSource cannot send one, so the stream is read from fetch). Each pushed alert or
 * review item refreshes the views that show it, so they change without a reload; `onPush` lets the
 * page say what arrived.
 */
export function useLiveUpdates(onPush?: (push: MonitoringPush) => void): LiveState {
  const token = useAppSelector((state) => state.auth.session?.access_token ?? null);
  const dispatch = useAppDispatch();
  const [state, setState] = useState<LiveState>('connecting');
  const onPushRef = useRef(onPush);
  onPushRef.current = onPush;

  useEffect(() => {
    if (!token) return undefined;
    const abort = new AbortController();
    let attempt = 0;
    let retry: number | undefined;

    const connect = async () => {
      setState('connecting');
      try {
        const response = await fetch(STREAM_URL, {
          headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
          signal: abort.signal,
        });
        if (response.status === 403) return setState('unavailable');
        // An expired token: the next query refreshes the session and this effect runs again.
        if (response.status === 401 || !response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const { frames, rest } = parseSseFrames(buffer + value);
          buffer = rest;
          for (const frame of frames) {
            if (frame.event === 'ready') {
              attempt = 0;
              setState('live');
              continue;
            }
            const parsed = monitoringPushSchema.safeParse(JSON.parse(frame.data || 'null'));
            if (!parsed.success) continue;
            dispatch(
              gatewayApi.util.invalidateTags(
                parsed.data.type === 'monitoring.alert' ? ['Monitoring', 'ClientLists'] : ['Reviews', 'Alerts'],
              ),
            );
            onPushRef.current?.(parsed.data);
          }
        }
        throw new Error('stream ended');
      } catch {
        if (abort.signal.aborted) return;
        setState('offline');
        retry = window.setTimeout(() => void connect(), RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
      }
    };
    void connect();
    return () => {
      abort.abort();
      window.clearTimeout(retry);
    };
  }, [token, dispatch]);

  return token ? state : 'offline';
}
