// Git commit objects: header lines ("tree <id>", "parent <id>", author, committer...), a blank
// line, then the message.

export interface CommitObject {
  tree: string;
  parents: string[];
  /** Absent when the author line cannot be read. */
  author?: CommitPerson;
  message: string;
}

/** The tree, parents and message of a commit object's content; undefined when malformed. */
export function decodeCommit(data: Buffer): CommitObject | undefined {
  const text = data.toString('utf8');
  const end = text.indexOf('\n\n');
  const header = end === -1 ? text : text.slice(0, end);
  let tree: string | undefined;
  let author: CommitPerson | undefined;
  const parents: string[] = [];
  for (const line of header.split('\n')) {
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
    else if (line.startsWith('author ')) author = decodePerson(line.slice(7));
  }
  if (!tree || !/^[0-9a-f]{40}$/.test(tree)) return undefined;
  return { tree, parents, ...(author ? { author } : {}), message: end === -1 ? '' : text.slice(end + 2) };
}

/** "Name <email> 1700000000 +0100": the time zone is dropped, the time is an instant anyway. */
function decodePerson(text: string): CommitPerson | undefined {
  const match = /^(.*?) ?<([^>]*)> (\d+) [+-]\d{4}$/.exec(text);
  return match ? { name: match[1], email: match[2], timestamp: Number(match[3]) } : undefined;
}

export interface CommitPerson {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

/** The content of a commit object; the message ends with a newline, as git writes it. */
export function encodeCommit(commit: {
  tree: string;
  parents: string[];
  author: CommitPerson;
  committer: CommitPerson;
  message: string;
}): Buffer {
  const person = (p: CommitPerson) => `${identName(p)} ${p.timestamp} +0000`;
  const lines = [
    `tree ${commit.tree}`,
    ...commit.parents.map((p) => `parent ${p}`),
    `author ${person(commit.author)}`,
    `committer ${person(commit.committer)}`,
  ];
  const message = commit.message.endsWith('\n') ? commit.message : `${commit.message}\n`;
  return Buffer.from(`${lines.join('\n')}\n\n${message}`, 'utf8');
}

/** "Name <email>" as git writes it in commits and reflogs. */
export function identName(person: { name: string; email: string }): string {
  // Angle brackets and line breaks would end the field early (git strips them too), a NUL is
  // an error to `git fsck`: no control character goes into a header. A person's name has been
  // cleaned further before (domain/writes/author-identity.ts); this holds for any name.
  const clean = (text: string) => text.replace(/[\p{Cc}<>]/gu, '').trim();
  return `${clean(person.name)} <${clean(person.email)}>`;
}
