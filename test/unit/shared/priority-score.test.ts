import { describe, expect, test } from 'vitest';
import { DEFAULT_PRIORITY_MODEL, learnPriority, scorePriority, type PriorityInput } from '../../../shared/priority-score';

const stranger: PriorityInput = { from: 'carol@kite.test', toYou: true, senderReplyRate: 0, threadHasYourReply: false, contactRank: 0, bulk: false };
const colleague: PriorityInput = { from: 'bob@kite.test', toYou: true, senderReplyRate: 0.8, threadHasYourReply: true, contactRank: 6, bulk: false };
const newsletter: PriorityInput = { from: 'newsletter@shop.test', toYou: true, senderReplyRate: 0, threadHasYourReply: false, contactRank: 0, bulk: true };

describe('the priority scorer (shared/priority-score.ts)', () => {
  test('the rules: a person you reply to in your own thread is important, with those reasons; a newsletter is not, because it is bulk and not a person', () => {
    const high = scorePriority(colleague);
    expect(high.important).toBe(true);
    expect(high.reasons).toEqual(['repliesToSender', 'yourThread', 'knownContact']);
    const low = scorePriority(newsletter);
    expect(low.important).toBe(false);
    expect(low.reasons).toEqual(['bulkMail', 'notAPerson']);
    expect(scorePriority(stranger).score).toBeGreaterThan(low.score);
    expect(scorePriority(stranger).score).toBeLessThan(high.score);
    // Cc instead of To lowers the score.
    expect(scorePriority({ ...colleague, toYou: false }).score).toBeLessThan(high.score);
  });

  test('marks teach the model: "important" on a sender the rules rank low lifts it past the threshold, "not important" brings a colleague down', () => {
    let model = DEFAULT_PRIORITY_MODEL;
    for (let i = 0; i < 12 && !scorePriority(stranger, model).important; i++) model = learnPriority(model, stranger, true);
    expect(scorePriority(stranger, model).important).toBe(true);
    expect(model.trained).toBeGreaterThan(0);
    expect(scorePriority(newsletter, model).important).toBe(false);

    let cooler = DEFAULT_PRIORITY_MODEL;
    for (let i = 0; i < 20 && scorePriority(colleague, cooler).important; i++) cooler = learnPriority(cooler, colleague, false);
    expect(scorePriority(colleague, cooler).important).toBe(false);
  });
});
