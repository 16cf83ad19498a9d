import type { PlanCase } from '../plan.js';
import type { CaseTools } from '../tools.js';

// One interface for every planner: run a case through the tools. The tools record
// steps and assertions and enforce limits; the loop decides pass or fail from what
// was recorded, never from what the planner says.
export interface Planner {
  readonly name: string;
  readonly model?: string;
  runCase(c: PlanCase, tools: CaseTools): Promise<void>;
}
