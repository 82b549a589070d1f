// Types of client-boundary.mjs, the lint rule (ESLint loads the .mjs itself).
import type { Rule } from 'eslint';

export const clientBoundary: Rule.RuleModule;
