#!/usr/bin/env node
// check-dashboard.js DASHBOARD.json NAMES - is the dashboard importable and
// does it query only what exists?  NAMES lists, one a line, the series
// names a query may use (the recording rules' and /metrics').  Checks: the
// JSON parses; title, uid, panels, templating and schemaVersion are there;
// the data source is the DS_PROMETHEUS input and variable, and every panel
// and target uses it; every panel has a gridPos and a unique id; every
// query names only known series.  Prints each problem; exits 1 on any.
'use strict';
const fs = require('fs');

const [dashFile, namesFile] = process.argv.slice(2);
const problems = [];
const bad = (msg) => problems.push(msg);
const DS = '${DS_PROMETHEUS}';

// PromQL words that are not series: operators, modifiers, keywords.
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right',
	'and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

// The series names an expression reads: identifiers outside strings,
// label matchers, groupings and ranges that are not a function call.
function seriesOf(expr) {
	const s = expr
		.replace(/"(?:[^"\\]|\\.)*"/g, '""')
		.replace(/\{[^}]*\}/g, ' ')
		.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
		.replace(/\[[^\]]*\]/g, ' ')
		.replace(/\$[a-zA-Z_]+/g, '1');
	const names = [];
	const re = /[a-zA-Z_:][a-zA-Z0-9_:]*/g;
	let m;
	while ((m = re.exec(s)) !== null) {
		const rest = s.slice(re.lastIndex);
		if (/^\s*\(/.test(rest) || KEYWORDS.has(m[0].toLowerCase()))
			continue;
		if (/^[0-9.]/.test(m[0]) || /^e[0-9]*$/.test(m[0]))
			continue;
		names.push(m[0]);
	}
	return names;
}

let dash;
try {
	dash = JSON.parse(fs.readFileSync(dashFile, 'utf8'));
} catch (e) {
	console.log(`FAIL: ${dashFile}: ${e.message}`);
	process.exit(1);
}
const known = new Set(fs.readFileSync(namesFile, 'utf8').split('\n').filter(Boolean));

for (const k of ['title', 'uid', 'panels', 'templating', 'schemaVersion'])
	if (!(k in dash))
		bad(`no top-level ${k}`);
if (typeof dash.schemaVersion !== 'number')
	bad('schemaVersion is not a number');
if (!(dash.__inputs || []).some((i) => i.name === 'DS_PROMETHEUS' && i.pluginId === 'prometheus'))
	bad('no __inputs entry DS_PROMETHEUS for a prometheus data source');
const vars = (dash.templating && dash.templating.list) || [];
if (!vars.some((v) => v.name === 'DS_PROMETHEUS' && v.type === 'datasource' && v.query === 'prometheus'))
	bad('no datasource variable DS_PROMETHEUS');
if (!vars.some((v) => v.name === 'instance'))
	bad('no instance variable');
for (const v of vars)
	if (v.type === 'query') {
		const q = typeof v.query === 'string' ? v.query : v.query.query;
		const m = /^label_values\(([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(q);
		if (!m || !known.has(m[1]))
			bad(`variable ${v.name}: query "${q}" reads no known series`);
		if (!v.datasource || v.datasource.uid !== DS)
			bad(`variable ${v.name}: data source is not ${DS}`);
	}

const ids = new Set();
let queries = 0;
function checkPanel(p) {
	const what = `panel ${p.id} "${p.title}"`;
	if (typeof p.id !== 'number')
		bad(`${what}: no numeric id`);
	else if (ids.has(p.id))
		bad(`${what}: duplicate id`);
	ids.add(p.id);
	const g = p.gridPos || {};
	if (!['x', 'y', 'w', 'h'].every((k) => Number.isInteger(g[k])) || g.x + g.w > 24)
		bad(`${what}: no valid gridPos`);
	(p.panels || []).forEach(checkPanel);
	if (p.type === 'row')
		return;
	if (!p.datasource || p.datasource.uid !== DS || p.datasource.type !== 'prometheus')
		bad(`${what}: data source is not ${DS}`);
	if (!Array.isArray(p.targets) || p.targets.length === 0)
		bad(`${what}: no targets`);
	for (const t of p.targets || []) {
		if (t.datasource && t.datasource.uid !== DS)
			bad(`${what} ${t.refId}: data source is not ${DS}`);
		if (typeof t.expr !== 'string' || t.expr === '') {
			bad(`${what} ${t.refId}: no expr`);
			continue;
		}
		queries++;
		const names = seriesOf(t.expr);
		if (names.length === 0)
			bad(`${what} ${t.refId}: reads no series: ${t.expr}`);
		for (const n of names)
			if (!known.has(n))
				bad(`${what} ${t.refId}: unknown series ${n}`);
	}
}
(dash.panels || []).forEach(checkPanel);

for (const p of problems)
	console.log(`FAIL: ${p}`);
if (problems.length > 0)
	process.exit(1);
console.log(`${ids.size} panels, ${queries} queries, all on known series`);
