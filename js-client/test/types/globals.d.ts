// What the test programs (not index.d.ts) use of Node, declared as Node declares it: the programs are
// checked without @types/node and without the DOM library. index.d.ts itself needs none of this.
declare const process: { argv: string[]; exitCode?: number };
declare const console: { log(...data: unknown[]): void };
declare class AbortSignal {
  readonly aborted: boolean;
  readonly reason: any;
  onabort: null | ((this: AbortSignal, event: unknown) => any);
  throwIfAborted(): void;
  addEventListener(
    type: string,
    listener: (event: unknown) => void,
    options?: boolean | { once?: boolean; passive?: boolean; signal?: AbortSignal },
  ): void;
  removeEventListener(type: string, listener: (event: unknown) => void, options?: boolean | { capture?: boolean }): void;
  static abort(reason?: unknown): AbortSignal;
  static timeout(milliseconds: number): AbortSignal;
  static any(signals: AbortSignal[]): AbortSignal;
}
