export interface CredenceProcess {
  /** http://127.0.0.1:<port> */
  base: string;
  /** What the server logged so far (the last 100 KB or more). */
  log(): string;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}
export function credenceBinary(): string;
/** `credence serve` on a free port; `args` are added (e.g. "--dev"). */
export function startCredence(args?: string[]): Promise<CredenceProcess>;
