/**
 * Something that keeps the service from starting and will not go away by waiting: a missing
 * directory, an unreadable seed file, a database of a newer schema. main.ts prints its
 * message as one line and exits with status 2.
 */
export class StartupError extends Error {}
