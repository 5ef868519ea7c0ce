// Git commit objects: header lines ("tree <id>", "parent <id>", author, committer...), a blank
// line, then the message.

export interface CommitObject {
  tree: string;
  parents: string[];
  message: string;
}

/** The tree, parents and message of a commit object's content; undefined when malformed. */
export function decodeCommit(data: Buffer): CommitObject | undefined {
  const text = data.toString('utf8');
  const end = text.indexOf('\n\n');
  const header = end === -1 ? text : text.slice(0, end);
  let tree: string | undefined;
  const parents: string[] = [];
  for (const line of header.split('\n')) {
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
  }
  if (!tree || !/^[0-9a-f]{40}$/.test(tree)) return undefined;
  return { tree, parents, message: end === -1 ? '' : text.slice(end + 2) };
}
