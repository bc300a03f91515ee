/**
 * What a screen shows when it fails to render, in place of the router's bare default.
 * A screen whose code is gone after a deploy (chunk-errors.ts) says so and offers a
 * reload, with the focus on the button; any other failure says the screen could not be
 * shown and offers to try again or reload. Both stay inside the layout around them, so
 * the sidebar and an open composer (its draft saved by the engine) are kept; a lazily
 * loaded part of a screen (the conversation view) fails inside its own area (PartBoundary).
 */
import type { ErrorComponentProps } from '@tanstack/react-router';
import { Component, useEffect, useRef, type ReactNode } from 'react';
import { TernError } from '../../shared/errors';
import { appUpdatedMessage, isChunkLoadError } from './chunk-errors';
import { errorText, useT } from '../kit/i18n';

/** `takeFocus`: the screen the person was using is gone, so the one thing left to do gets the focus. */
export function AppUpdated({ takeFocus = true }: { readonly takeFocus?: boolean }) {
  const t = useT();
  const reload = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (takeFocus) reload.current?.focus();
  }, [takeFocus]);
  return (
    <section className="empty-page route-error" aria-labelledby="app-updated-message">
      <p id="app-updated-message" role="alert">
        {appUpdatedMessage()}
      </p>
      <button ref={reload} type="button" className="button button-primary" onClick={() => location.reload()}>
        {t('app.reload')}
      </button>
    </section>
  );
}

/** `part`: only a part of the screen failed (PartBoundary); the focus stays where the person has it. */
export function RouteError({ error, reset, part = false }: ErrorComponentProps & { readonly part?: boolean }) {
  const t = useT();
  if (isChunkLoadError(error)) return <AppUpdated takeFocus={!part} />;
  return (
    <section className="empty-page route-error" aria-labelledby="route-error-message">
      <p id="route-error-message" role="alert">
        {t('app.thisScreenCouldNot')} {errorText(t, TernError.from(error))}
      </p>
      <div className="route-error-actions">
        <button type="button" className="button button-primary" onClick={reset}>
          {t('app.tryAgain')}
        </button>
        <button type="button" className="button" onClick={() => location.reload()}>
          {t('app.reload')}
        </button>
      </div>
    </section>
  );
}

interface PartBoundaryProps {
  readonly children: ReactNode;
  /** A new value (another thread) tries the part again. */
  readonly resetKey: unknown;
}

/**
 * Keeps the failure of a lazily loaded part to the part's own area: the conversation
 * view's chunk gone after a deploy replaces the reading pane's content, and the thread
 * list beside it stays (and keeps the focus: j/k go on moving through it). Another
 * `resetKey` (another thread) clears it.
 */
interface PartState {
  readonly error: Error | null;
  readonly resetKey: unknown;
}

export class PartBoundary extends Component<PartBoundaryProps, PartState> {
  override state: PartState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromProps(props: PartBoundaryProps, state: PartState): Partial<PartState> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  static getDerivedStateFromError(error: unknown): Partial<PartState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    return this.state.error ? <RouteError error={this.state.error} reset={() => this.setState({ error: null })} part /> : this.props.children;
  }
}
