import { Link } from '@tanstack/react-router';

/** An address the app has no screen for. */
export function NotFound() {
  return (
    <main className="empty-page" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Nothing here</h1>
      <p>This address does not lead to a mailbox.</p>
      <Link to="/mail/unified/$role" params={{ role: 'inbox' }} className="button button-primary">
        Go to your inbox
      </Link>
    </main>
  );
}
