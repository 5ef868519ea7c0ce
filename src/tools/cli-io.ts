// Where the command line reads and writes: the process's streams, or a test's buffers.
export interface CliIo {
  stdout: (text: string | Buffer) => void;
  stderr: (text: string) => void;
  /** The directory relative paths are given from. */
  cwd: string;
  env: Record<string, string | undefined>;
  /** stdout is a terminal: text reports may be coloured (see ./terminal-colours.ts). */
  stdoutIsTerminal?: boolean;
  /** The terminal's width, for wrapping --help; 80 when unknown. */
  columns?: number;
}
