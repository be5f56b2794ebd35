// The files of a task on a running service, for `phasedesk task result` and `submit --out`: the file lists of
// GET /task/{id}/result, /preview and /vtk and the downloads of their signed URLs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliExit, EXIT, download, fileNameOf, request, type Remote } from './remote.js';

export type FileKind = 'result' | 'preview' | 'vtk';

async function fileUrls(remote: Remote, id: number, kind: FileKind): Promise<string[]> {
  return (await request<{ files: string[] }>(remote, 'GET', `/task/${id}/${kind}`)).files;
}

/** The names and URLs of one kind of file (the URLs expire: a script downloads them at once). */
export async function printFileList(remote: Remote, id: number, kind: FileKind): Promise<void> {
  for (const url of await fileUrls(remote, id, kind)) console.log(`${fileNameOf(url)}\t${url}`);
}

/** One named file written to standard output as it is (bytes); a name the list lacks is bad input naming the others. */
export async function writeFileToStdout(remote: Remote, id: number, name: string, kind: FileKind): Promise<void> {
  const urls = await fileUrls(remote, id, kind);
  const url = urls.find((u) => fileNameOf(u) === name);
  if (url === undefined)
    throw new CliExit(
      EXIT.badInput,
      `task ${id} has no ${kind} file ${name} (files: ${urls.map(fileNameOf).join(', ') || 'none'})`,
    );
  const bytes = await download(url);
  await new Promise<void>((resolve, reject) => process.stdout.write(bytes, (e) => (e ? reject(e) : resolve())));
}

/**
 * Every file of the kinds into DIR/<kind>/<name>, the layout `phasedesk calc --out` writes; a kind the task type does
 * not make (no VTK files) is skipped. Prints each file written.
 */
export async function saveFiles(remote: Remote, id: number, dir: string, kinds: FileKind[]): Promise<void> {
  for (const kind of kinds) {
    const urls = await fileUrls(remote, id, kind);
    if (urls.length === 0) continue;
    mkdirSync(join(dir, kind), { recursive: true });
    for (const url of urls) {
      const name = fileNameOf(url);
      // a name is one path segment: the service's URLs never lead out of DIR
      if (name === '' || name === '.' || name === '..' || /[/\\]/.test(name))
        throw new CliExit(EXIT.failed, `task ${id}: the service named a file '${name}'`);
      const target = join(dir, kind, name);
      writeFileSync(target, await download(url));
      console.log(target);
    }
  }
}
