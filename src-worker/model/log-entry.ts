/** The Log entity (spec §3): one buffered log line, stored in the account's Log table. */
import { datetime, string } from './attributes';
import { defineModel, type ModelValue } from './model';

export const LogEntryModel = defineModel({
  table: 'Log',
  object: 'log',
  attributes: {
    timestamp: datetime('timestamp'),
    logs: string('logs'),
    type: string('type'),
  },
});

export type LogEntry = ModelValue<'log', typeof LogEntryModel.attributes>;
