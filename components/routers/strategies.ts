import { ROUTER_STRATEGIES } from '@/lib/routers/schemas';

export type Strategy = (typeof ROUTER_STRATEGIES)[number];

/** How each strategy picks a provider, in the words the settings page and the routers list use. */
export const strategies: Record<Strategy, { label: string; description: string }> = {
  'priority-chain': { label: 'Priority chain', description: 'The free provider with the best (lowest) priority; the next one in order on failure.' },
  'round-robin': { label: 'Round robin', description: 'Each new session goes to the next provider in turn.' },
  'least-connections': { label: 'Least connections', description: 'The provider with the fewest active sessions.' },
  'latency-optimized': { label: 'Latency optimized', description: 'The provider that opened recent connections fastest.' },
  weighted: { label: 'Weighted', description: "Sessions spread in proportion to each provider's weight." },
};

export const strategyLabel = (value: string) => strategies[value as Strategy]?.label ?? value;
export { ROUTER_STRATEGIES };
