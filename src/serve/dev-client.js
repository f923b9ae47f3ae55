// skillpress dev, in the page: reload after a rebuild is served; while a rebuild is not served
// (it brought new errors), show its problems over the page. Served by src/serve/dev-server.ts,
// which adds this script to every page with the number of the build the page comes from.
const pageBuild = Number(new URL(import.meta.url).searchParams.get('build'));
const BOX = 'skillpress-dev-problems';

function show(status) {
  const old = document.getElementById(BOX);
  if (status.ok) return old?.remove();
  const box = old ?? document.createElement('aside');
  box.id = BOX;
  box.setAttribute('role', 'alert');
  // Styles through the CSSOM: the pages' Content-Security-Policy allows no inline style attribute.
  Object.assign(box.style, {
    position: 'fixed',
    insetInline: '1rem',
    bottom: '1rem',
    zIndex: '100',
    maxHeight: '50vh',
    overflow: 'auto',
    padding: '1rem',
    borderRadius: '8px',
    background: '#7f1d1d',
    color: '#fff',
    font: '14px/1.45 ui-monospace, monospace',
  });
  const title = document.createElement('strong');
  title.textContent = status.failure
    ? 'skillpress dev: the build failed; this page is the last good build.'
    : 'skillpress dev: this change has problems; this page is the last good build.';
  const list = document.createElement('pre');
  Object.assign(list.style, { margin: '0.5rem 0 0', whiteSpace: 'pre-wrap' });
  list.textContent = (status.failure ? [status.failure] : status.problems).join('\n');
  box.replaceChildren(title, list);
  if (!old) document.body.append(box);
}

const events = new EventSource('/__skillpress/events');
events.onmessage = (e) => {
  const status = JSON.parse(e.data);
  if (!status) return;
  if (status.served !== pageBuild) return location.reload();
  show(status);
};
