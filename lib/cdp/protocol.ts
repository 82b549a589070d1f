// The Chrome DevTools Protocol's commands and events, typed from the `devtools-protocol` package
// (types only; nothing of it runs): a command's parameters and result, an event's parameters, by
// name. A method the package does not know (a newer browser's) is a type error, not a guess.
import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping';

export type { Protocol } from 'devtools-protocol/types/protocol';

export type CdpMethod = keyof ProtocolMapping.Commands;
export type CdpEventName = keyof ProtocolMapping.Events;

/** What `method` takes: its parameters object (optional where the protocol lets it be left out). */
export type CdpParams<M extends CdpMethod> = ProtocolMapping.Commands[M]['paramsType'] extends []
  ? Record<string, never>
  : NonNullable<ProtocolMapping.Commands[M]['paramsType'][0]>;

/** The parameters a client's send takes: the method's, or none (`{}`, the default). */
export type CdpSendParams<M extends CdpMethod> = CdpParams<M> | Record<string, never>;

/** Whether `method` may be sent without parameters. */
type ParamsOptional<M extends CdpMethod> = ProtocolMapping.Commands[M]['paramsType'] extends []
  ? true
  : [] extends ProtocolMapping.Commands[M]['paramsType']
    ? true
    : false;

/** The arguments after the method: parameters, required only where the protocol requires them. */
export type CdpParamsArg<M extends CdpMethod> = ParamsOptional<M> extends true ? [params?: CdpParams<M>] : [params: CdpParams<M>];

/** What `method` answers (an empty object for the commands that answer nothing). */
export type CdpResult<M extends CdpMethod> = ProtocolMapping.Commands[M]['returnType'] extends void
  ? Record<string, never>
  : ProtocolMapping.Commands[M]['returnType'];

/** What event `name` carries (an empty object for the events that carry nothing). */
export type CdpEventParams<E extends CdpEventName> = ProtocolMapping.Events[E] extends [infer P] ? P : Record<string, never>;
