// skillpress dev, in the page: reload after a rebuild is served; while a rebuild is not served
// (it brought new errors), show its problems over the page; the skills the served build leaves
// out (their errors) and its warnings show folded under their count. Served by
// src/serve/dev-server.ts, which adds this script to every page with the number of the build the
// page comes from.
const pageBuild = Number(new URL(import.meta.url).searchParams.get('build'));
const BOX = 'skillpress-dev-problems';
const WARNINGS = 'skillpress-dev-warnings';

/** A fixed box at the bottom of the page. Styles through the CSSOM: the pages' Content-Security-Policy allows no inline style attribute. */
function box(id, background) {
  const el = document.getElementById(id) ?? document.createElement('aside');
  el.id = id;
  Object.assign(el.style, {
    position: 'fixed',
    insetInline: '1rem',
    bottom: '1rem',
    zIndex: '100',
    maxHeight: '50vh',
    overflow: 'auto',
    padding: '0.75rem 1rem',
    borderRadius: '8px',
    background,
    color: '#fff',
    font: '14px/1.45 ui-monospace, monospace',
  });
  if (!el.isConnected) document.body.append(el);
  return el;
}

function lines(text) {
  const list = document.createElement('pre');
  Object.assign(list.style, { margin: '0.5rem 0 0', whiteSpace: 'pre-wrap' });
  list.textContent = text.join('\n');
  return list;
}

function showProblems(status) {
  if (status.ok) return document.getElementById(BOX)?.remove();
  const el = box(BOX, '#7f1d1d');
  el.setAttribute('role', 'alert');
  const title = document.createElement('strong');
  title.textContent = status.failure
    ? 'skillpress dev: the build failed; this page is the last good build.'
    : 'skillpress dev: this change has problems; this page is the last good build.';
  el.replaceChildren(title, lines(status.failure ? [status.failure] : status.problems));
}

/** `1 invalid skill left out, 3 warnings`: what the served build leaves out, then its warnings. */
function servedSummary(invalid, warnings) {
  const parts = [];
  if (invalid > 0) parts.push(`${invalid} invalid skill${invalid === 1 ? '' : 's'} left out`);
  if (warnings > 0) parts.push(`${warnings} warning${warnings === 1 ? '' : 's'}`);
  return `skillpress dev: ${parts.join(', ')} in this catalog`;
}

function showWarnings(status) {
  const warnings = status.warnings ?? [];
  const errors = status.errors ?? [];
  // Problems first: one box at a time.
  if ((warnings.length === 0 && errors.length === 0) || !status.ok) return document.getElementById(WARNINGS)?.remove();
  const el = box(WARNINGS, errors.length > 0 ? '#7f1d1d' : '#78350f');
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = servedSummary(status.invalid ?? 0, warnings.length);
  Object.assign(summary.style, { cursor: 'pointer', fontWeight: '700' });
  details.replaceChildren(summary, ...[errors, warnings].filter((l) => l.length > 0).map(lines));
  el.replaceChildren(details);
}

const events = new EventSource('/__skillpress/events');
events.onmessage = (e) => {
  const status = JSON.parse(e.data);
  if (!status) return;
  if (status.served !== pageBuild) return location.reload();
  showProblems(status);
  showWarnings(status);
};
