import type { Scenario } from '../lib/scenario';

export const uiScenarios: Scenario[] = [];
