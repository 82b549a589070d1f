// A control-plane close reaches the proxy that holds the session through NOTIFY.
export const SESSION_CLOSE_CHANNEL = 'session_close';
