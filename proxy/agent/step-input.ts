// A browser_act step as the model writes it: one flat object whatever the action (easy for models
// to write), its schema, and its translation into the toolkit's ActionStep (types.ts).
import { z } from 'zod';
import { AgentError, type ActionStep } from './types';

const STEP_ACTIONS = ['click', 'fill', 'type', 'press', 'check', 'uncheck', 'select', 'hover', 'scroll'] as const;

export const step = z.object({
  action: z
    .enum(STEP_ACTIONS)
    .describe(
      'click, fill (replace the text), type (add text without clearing), press (a key), check, uncheck, select (an option of a drop-down), hover, scroll',
    ),
  ref: z.string().max(16).optional().describe('The element ref from the latest snapshot, such as e12. Required except for press and scroll.'),
  text: z.string().max(100_000).optional().describe('fill, type: the text.'),
  key: z.string().max(40).optional().describe('press: a key name such as Enter, Tab, Escape, ArrowDown, or a shortcut such as Control+a.'),
  option: z.string().max(500).optional().describe("select: the option's visible text or value."),
  direction: z.enum(['up', 'down', 'left', 'right']).optional().describe('scroll: the direction.'),
  amount: z.number().int().min(1).max(100_000).optional().describe('scroll: pixels (default: most of the viewport).'),
});

/** A flat step (easy for models to write) as the toolkit's step, or an error naming what is missing. */
export function toStep(raw: z.infer<typeof step>, index: number): ActionStep {
  const need = (field: 'ref' | 'text' | 'key' | 'option' | 'direction') => {
    const value = raw[field];
    if (value === undefined) throw new AgentError('invalid', `step ${index + 1} (${raw.action}) needs "${field}"`);
    return value;
  };
  switch (raw.action) {
    case 'click':
    case 'hover':
    case 'check':
    case 'uncheck':
      return { action: raw.action, ref: need('ref') };
    case 'fill':
    case 'type':
      return { action: raw.action, ref: need('ref'), text: need('text') };
    case 'press':
      return { action: 'press', key: need('key'), ref: raw.ref };
    case 'select':
      return { action: 'select', ref: need('ref'), option: need('option') };
    case 'scroll':
      return { action: 'scroll', direction: need('direction') as 'up' | 'down' | 'left' | 'right', amount: raw.amount, ref: raw.ref };
  }
}
