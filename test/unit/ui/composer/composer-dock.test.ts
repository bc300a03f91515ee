// @vitest-environment happy-dom
/**
 * The composer's dock: an answer (reply, reply all, forward, a draft that answers) is
 * placed as an answer (a lower dock, the reading pane making room), a new message is not;
 * once the pane has made room, the conversation's last message is scrolled into what
 * stays visible above the composer, and nothing moves when it is already in sight.
 */
import { afterEach, expect, test } from 'vitest';
import { dockClassName, isAnswer, revealLastMessage } from '../../../../src-ui/app/composer-dock';

afterEach(() => {
  document.body.innerHTML = '';
});

test('replies, forwards and draft answers are answers; a new message is not', () => {
  expect(isAnswer({ mode: 'reply' })).toBe(true);
  expect(isAnswer({ mode: 'replyAll' })).toBe(true);
  expect(isAnswer({ mode: 'forward' })).toBe(true);
  expect(isAnswer({ mode: 'new', inReplyToMessageId: '42' })).toBe(true);
  expect(isAnswer({ mode: 'new' })).toBe(false);
  expect(dockClassName({ mode: 'reply' }, false)).toBe('composer-dock is-answer');
  expect(dockClassName({ mode: 'reply' }, true)).toBe('composer-dock is-answer is-minimized');
  expect(dockClassName({ mode: 'new' }, false)).toBe('composer-dock');
});

/** A reading pane whose scroller shows [top, bottom) and whose last message spans [msgTop, msgBottom) on screen. */
function pane(view: { top: number; bottom: number }, message: { top: number; bottom: number }) {
  document.body.innerHTML = '<section class="reading-pane"><div class="reading-pane-scroll"><article class="tern-message"></article><article class="tern-message" id="last"></article></div></section>';
  const scroller = document.querySelector<HTMLElement>('.reading-pane-scroll')!;
  const rect = (box: { top: number; bottom: number }) => () => ({ ...box, left: 0, right: 500, x: 0, y: box.top, width: 500, height: box.bottom - box.top, toJSON: () => box }) as DOMRect;
  scroller.getBoundingClientRect = rect(view);
  document.getElementById('last')!.getBoundingClientRect = rect(message);
  scroller.scrollTop = 100;
  return scroller;
}

test('the last message under the composer scrolls up to the visible bottom', () => {
  const scroller = pane({ top: 160, bottom: 400 }, { top: 300, bottom: 520 });
  revealLastMessage();
  expect(scroller.scrollTop).toBe(100 + 120);
});

test('a last message taller than what stays visible shows its start', () => {
  const scroller = pane({ top: 160, bottom: 400 }, { top: 250, bottom: 1200 });
  revealLastMessage();
  expect(scroller.scrollTop).toBe(100 + 90);
});

test('a last message already in sight does not move', () => {
  const scroller = pane({ top: 160, bottom: 400 }, { top: 200, bottom: 380 });
  revealLastMessage();
  expect(scroller.scrollTop).toBe(100);
});
