/**
 * What a screen shows when it fails to render, in place of the router's bare default.
 * A screen whose code is gone after a deploy (chunk-errors.ts) says so and offers a
 * reload, with the focus on the button; any other failure says the screen could not be
 * shown and offers to try again or reload. Both stay inside the layout around them, so
 * the sidebar and an open composer (its draft saved by the engine) are kept.
 */
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { TernError } from '../../shared/errors';
import { appUpdatedMessage, isChunkLoadError } from './chunk-errors';

export function AppUpdated() {
  const reload = useRef<HTMLButtonElement>(null);
  // The screen the person was using is gone: the one thing to do next gets the focus.
  useEffect(() => reload.current?.focus(), []);
  return (
    <section className="empty-page route-error" aria-labelledby="app-updated-message">
      <p id="app-updated-message" role="alert">
        {appUpdatedMessage()}
      </p>
      <button ref={reload} type="button" className="button button-primary" onClick={() => location.reload()}>
        Reload
      </button>
    </section>
  );
}

export function RouteError({ error, reset }: ErrorComponentProps) {
  if (isChunkLoadError(error)) return <AppUpdated />;
  return (
    <section className="empty-page route-error" aria-labelledby="route-error-message">
      <p id="route-error-message" role="alert">
        This screen could not be shown. {TernError.from(error).message}
      </p>
      <div className="route-error-actions">
        <button type="button" className="button button-primary" onClick={reset}>
          Try again
        </button>
        <button type="button" className="button" onClick={() => location.reload()}>
          Reload
        </button>
      </div>
    </section>
  );
}
