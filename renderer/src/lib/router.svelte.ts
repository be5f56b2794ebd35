// Hash router: works the same from the listener, from vite preview and from file:// inside Electron.
export interface Route {
  name: string;
  params: Record<string, string>;
  query: URLSearchParams;
}

function parse(): Route {
  const h = location.hash.replace(/^#\/?/, '');
  const [path = '', q = ''] = h.split('?');
  const parts = path.split('/').filter(Boolean);
  const query = new URLSearchParams(q);
  if (parts[0] === 'databases' && parts[1])
    return { name: 'database', params: { id: decodeURIComponent(parts[1]) }, query };
  if (parts[0] === 'tasks' && parts[1]) return { name: 'task', params: { id: parts[1] }, query };
  return { name: parts[0] ?? '', params: {}, query };
}

export const route = $state<{ current: Route }>({ current: parse() });
window.addEventListener('hashchange', () => {
  route.current = parse();
});
export function go(hash: string): void {
  location.hash = hash;
}
