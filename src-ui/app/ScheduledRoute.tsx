/** /mail/scheduled: the Scheduled list; Edit opens the message, back to a draft, in the composer. */
import { composerInitialOfDraft } from '../composer/draft-initial';
import { ScheduledView } from '../scheduled/ScheduledView';
import { useMailActions } from '../state/actions-context';

export function ScheduledRoute() {
  const actions = useMailActions();
  return <ScheduledView onEdit={(draft) => actions.openComposer(composerInitialOfDraft(draft))} />;
}
