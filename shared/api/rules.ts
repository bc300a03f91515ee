/**
 * The gateway's rules routes (shapes in shared/mail-rules.ts):
 *
 *   GET /api/rules   → RulesDoc: the account's rules, and `availability` 'unavailable' when its
 *                     mail server has no ManageSieve (looked for on the first ask).
 *   PUT /api/rules   { rules, baseRevision } → RulesDoc. The rules are checked (a folder that
 *                     does not exist TargetFolderNotExists 404, a date range ending before it
 *                     starts InvalidParameter 400 with detail.field), written as Tern's Sieve
 *                     script, checked by the server (CHECKSCRIPT; refused: SieveScriptRejected 400
 *                     with detail.server), stored (over the size: TooLargeSieveUpdate 403) and
 *                     made active. Any refusal changes nothing, on the server or here. An edit of
 *                     an older revision is RulesChanged 409; no ManageSieve SieveUnavailable 404;
 *                     block/allow lists and business hours without the plan FeatureNotInPlan 402.
 *   POST /api/rules/apply { filter } → 202 { run }: the filter run once over the Inbox's mail by a
 *                     gateway job (IMAP SEARCH, then its flags, labels and move a batch at a time;
 *                     forwarding and stop do not apply to mail already here). The run's progress
 *                     (n of N) reaches every device through delta ('rules' upserts); the mirror
 *                     has the result before the run says 'done'.
 *   GET /api/rules/activity → RulesActivity: the rules' revision and the runs of the last hour
 *                     (what a page opened or reloaded mid-run shows first).
 *   Every save and every step of a run is a 'rules' entry in the account's transaction log.
 */
export {
  rulesActivitySchema,
  rulesApplyRequestSchema,
  rulesApplyResponseSchema,
  rulesDocSchema,
  rulesPutRequestSchema,
  type RuleRun,
  type RulesActivity,
  type RulesDoc,
  type RulesPutRequest,
} from '../mail-rules';
