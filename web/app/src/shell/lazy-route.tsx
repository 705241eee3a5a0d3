import { Spinner } from '@vigil/ui';
import { useEffect, useState, type ComponentType } from 'react';
import { NAVIGATION_ATTEMPTS, NavigationErrorScreen } from './navigation-error.js';

type LoadState = 'loading' | 'failed' | 'ready';

/**
 * A route whose page code is a separate chunk, fetched the first time the route
 * is visited. While it downloads the route shows "Loading..."; if the download
 * fails (offline, a deploy replaced the chunk) it shows the navigation error
 * screen, whose Try Again fetches the chunk again, up to three times.
 *
 * Not React.lazy: a lazy component remembers a failed import for good, so Try
 * Again could never succeed without a full reload.
 */
export function lazyRoute(load: () => Promise<ComponentType>): ComponentType {
  let loaded: ComponentType | null = null;

  function LazyRoute() {
    const [state, setState] = useState<LoadState>(loaded ? 'ready' : 'loading');
    const [attempt, setAttempt] = useState(0);

    useEffect(() => {
      if (loaded) return;
      let cancelled = false;
      load().then(
        (component) => {
          loaded = component;
          if (!cancelled) setState('ready');
        },
        () => {
          if (!cancelled) setState('failed');
        },
      );
      return () => {
        cancelled = true;
      };
    }, [attempt]);

    if (state === 'ready' && loaded) {
      const Page = loaded;
      return <Page />;
    }
    if (state === 'failed') {
      return (
        <NavigationErrorScreen
          attemptsLeft={NAVIGATION_ATTEMPTS - attempt}
          onRetry={() => {
            setState('loading');
            setAttempt((n) => n + 1);
          }}
        />
      );
    }
    return (
      <div className="flex min-h-[60vh] items-center justify-center px-6 pt-28">
        <Spinner label="Loading..." />
      </div>
    );
  }

  return LazyRoute;
}
