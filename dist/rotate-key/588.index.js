export const id = 588;
export const ids = [588];
export const modules = {

/***/ 1086:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   k: () => (/* binding */ resultKind),
/* harmony export */   r: () => (/* binding */ ageProperties)
/* harmony export */ });
// What the result writers (JUnit, SARIF) take: the scan and its findings as the client reads them.
// Both faces (the Action and the CLI) build this from the pipeline's JobResult.
/** A finding's age as properties: failingSince, failingScans, dueAt, overdue (none without one). */
function ageProperties(marks) {
    const age = marks.age;
    if (!age)
        return {};
    return {
        ...(age.failingSince ? { failingSince: age.failingSince } : {}),
        failingScans: age.failingScans,
        ...(age.dueAt ? { dueAt: age.dueAt } : {}),
        overdue: age.overdue,
    };
}
function resultKind(result) {
    const word = result.trim().toLowerCase();
    if (word === 'failed' || word === 'fail' || word === 'failure')
        return 'failed';
    if (word === 'passed' || word === 'pass' || word === 'success')
        return 'passed';
    if (word === 'skipped' || word === 'skip' || word === 'notapplicable')
        return 'skipped';
    if (word === 'error' || word === 'errored')
        return 'error';
    return 'other';
}


/***/ }),

/***/ 1588:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  sarifText: () => (/* binding */ sarifText)
});

// UNUSED EXPORTS: DEFAULT_TOOL_URI, SARIF_SCHEMA_URI, levelFromSeverity, toSarif

// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/client/index.js + 30 modules
var client = __webpack_require__(7613);
// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/common/json-text.js
var json_text = __webpack_require__(1021);
;// CONCATENATED MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/common/markdown.js
// Service text into GitHub Markdown, as plain text and nothing else. Every surface that shows what
// the service sent (the job summary, the PR comment, the check run, SARIF's markdown, tracking
// issues, the roll-up) writes it through these functions, never its own escaping.
//
// GitHub turns more than Markdown live: its mention filter runs on the rendered text, so `\@team`
// still pings the team; only a code span stops it (github/markup#1168). Issue references (#1,
// owner/repo#2, GH-3), commit-like hex, bare addresses and emails are linked the same way. So
// those tokens go in code spans, every other ASCII punctuation mark is backslash-escaped (no
// emphasis, link, image, HTML, heading or table break survives), controls are stripped, and
// key-shaped secrets are redacted before anything else.

/** Cuts to at most `max` characters (code points, never half a surrogate pair), adding … when cut. */
function cutChars(text, max) {
    const chars = Array.from(text);
    if (chars.length <= max)
        return text;
    return `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}
/** Cuts to at most `maxBytes` UTF-8 bytes, on a character boundary. */
function cutBytes(text, maxBytes) {
    if (Buffer.byteLength(text) <= maxBytes)
        return text;
    let bytes = 0;
    let out = '';
    for (const char of text) {
        const size = Buffer.byteLength(char);
        if (bytes + size > maxBytes)
            break;
        bytes += size;
        out += char;
    }
    return out;
}
/** What GitHub links or notifies on its own, outside code: addresses, emails, @mentions and
 *  @org/team, issue references, GH- references, commit-like hex. None holds a backtick or a pipe. */
const LIVE_TOKEN = new RegExp([
    String.raw `(?:https?|ftp)://[^\s<>\x60|]+`,
    String.raw `www\.[^\s<>\x60|]+`,
    String.raw `[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+`,
    String.raw `@[A-Za-z0-9][A-Za-z0-9-]*(?:/[A-Za-z0-9_.-]+)?`,
    String.raw `(?:[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)?#\d+`,
    String.raw `\bGH-\d+`,
    String.raw `\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`,
    String.raw `\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b`,
].join('|'), 'gi');
/** Every ASCII punctuation mark: CommonMark lets each be backslash-escaped to stand for itself. */
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;
/** Plain text for a table cell or a line: secrets redacted, one line, controls stripped. */
function plain(text, max) {
    return cutChars((0,client/* displayLine */.pr)((0,client/* redact */.E$)(text)), max);
}
function escapePunctuation(text) {
    return text.replace(ASCII_PUNCTUATION, '\\$&');
}
/** A code span of `text`, with a fence longer than any backtick run inside. In a GFM table cell a
 *  pipe must be escaped even inside code (the table splits rows first). */
function fence(text, inTable) {
    const longest = (text.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
    const ticks = '`'.repeat(longest + 1);
    const padded = /^`|`$/.test(text) || /^ .* $/.test(text) ? ` ${text} ` : text;
    return `${ticks}${inTable ? padded.replace(/\|/g, '\\|') : padded}${ticks}`;
}
/** Service text as Markdown that renders as that text: no mention, reference, link, image, HTML or
 *  table break; at most `max` characters before escaping. '' for nothing. Safe in a table cell. */
function markdownText(text, max = 200) {
    if (text === undefined)
        return '';
    const line = plain(text, max);
    let out = '';
    let at = 0;
    for (const match of line.matchAll(LIVE_TOKEN)) {
        out += escapePunctuation(line.slice(at, match.index)) + fence(match[0], false);
        at = match.index + match[0].length;
    }
    return out + escapePunctuation(line.slice(at));
}
/** Service text (an id) as an inline code span, shown exactly; `inTable` for a GFM table cell. */
function markdownCode(text, max = 128, inTable = true) {
    if (text === undefined)
        return '';
    const line = plain(text, max);
    return line === '' ? '' : fence(line, inTable);
}
/** A link our own code renders: `label` is ours; the address must be http(s), else ''. Safe in a
 *  table cell. */
function markdownLink(label, address) {
    if (!address)
        return '';
    let url;
    try {
        url = new URL((0,client/* redact */.E$)(address).trim());
    }
    catch {
        return '';
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
        return '';
    const href = url.href.replace(/[()|<> `\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    return `[${escapePunctuation(label)}](${href})`;
}
/** Service text in a plain-text title (an issue's): one line, secrets redacted, at most `max`
 *  characters. GitHub links issue references in titles and reads @ there too: @ and # become
 *  their fullwidth forms, which look alike and stay text. */
function plainTitle(text, max = 200) {
    return plain(text, max).replace(/@/g, '＠').replace(/#/g, '＃');
}
/** Service text for a chat message's plain-text element (a Teams TextRun, a Slack plain_text):
 *  one line, secrets redacted, at most `max` characters; @ and # as in plainTitle, addresses
 *  defanged (`https：//`, `www．`) and Slack's `<!here>` form broken (`‹!here>`), so no chat
 *  client makes a mention or a live link of them. */
function chatText(text, max = 200) {
    return plainTitle(text, max)
        .replace(/<!/g, '‹!')
        .replace(/:\/\//g, '：//')
        .replace(/\bwww\./gi, (www) => `${www.slice(0, 3)}．`);
}

// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/output/checks.js
var checks = __webpack_require__(1086);
;// CONCATENATED MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/output/sarif.js
// SARIF 2.1.0 of a scan: each failed check is a result with its rule (id, help text, link), the
// level taken from the severity. Valid against the OASIS schema (test/fixtures/sarif/) and checked
// with Microsoft's SARIF multitool in CI.




const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
const DEFAULT_TOOL_URI = 'https://github.com/tenant-scan/tenant-scan';
const LEVEL_BY_SEVERITY = {
    critical: 'error',
    high: 'error',
    medium: 'warning',
    low: 'note',
    info: 'note',
    unknown: 'warning',
};
// GitHub code scanning ranks results by this property (a CVSS-like score as a string).
const SECURITY_SEVERITY = {
    critical: '9.5',
    high: '8.0',
    medium: '5.5',
    low: '3.0',
    info: '0.0',
    unknown: '5.0',
};
function levelFromSeverity(severity) {
    return LEVEL_BY_SEVERITY[severity];
}
/** The SARIF log; `lazy`: its results made as they are written (sarifText), never all at once. */
function toSarif(input, lazy = false) {
    const failed = input.findings.filter((finding) => (0,checks/* resultKind */.k)(finding.result) === 'failed');
    const fixed = input.baselineFound ? (input.fixed ?? []) : [];
    const rules = uniqueRules(failed.concat(fixed));
    const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
    const failedResult = (finding) => ({
        ...resultOf(finding, ruleIndex, (0,checks/* ageProperties */.r)(finding)),
        ...gateFieldsOf(finding, input.baselineFound),
        ...locationOf(input.sarifLocationUri),
    });
    const fixedResult = (finding) => ({
        ...absentResultOf(finding, ruleIndex),
        ...locationOf(input.sarifLocationUri),
    });
    const results = lazy
        ? new json_text/* JsonList */.bW(failed.length + fixed.length, function* () {
            for (const finding of failed)
                yield failedResult(finding);
            for (const finding of fixed)
                yield fixedResult(finding);
        })
        : [...failed.map(failedResult), ...fixed.map(fixedResult)];
    return {
        $schema: SARIF_SCHEMA_URI,
        version: '2.1.0',
        runs: [
            {
                tool: {
                    driver: {
                        name: 'tenant-scan',
                        informationUri: input.toolUri ?? DEFAULT_TOOL_URI,
                        version: input.toolVersion ?? client/* CLIENT_VERSION */.fZ,
                        rules,
                    },
                },
                automationDetails: { id: `tenant-scan/${input.scan.scanType ?? 'scan'}/${input.scan.id}` },
                invocations: [{ executionSuccessful: true, ...timesOf(input) }],
                results,
                properties: runProperties(input),
            },
        ],
    };
}
/** The SARIF file's text (pretty JSON and a line feed), a result at a time. */
function* sarifText(input) {
    yield* (0,json_text/* prettyJsonPieces */.ae)(toSarif(input, true));
    yield '\n';
}
function uniqueRules(findings) {
    const byId = new Map();
    for (const finding of findings) {
        const id = finding.identity;
        if (!byId.has(id))
            byId.set(id, ruleOf(id, finding));
    }
    return [...byId.values()];
}
function ruleOf(id, finding) {
    const reference = absoluteUri(finding.reference);
    return {
        id,
        shortDescription: { text: sentence(finding.title) },
        ...(finding.description ? { fullDescription: { text: sentence(finding.description) } } : {}),
        help: helpOf(finding, reference),
        ...(reference ? { helpUri: reference } : {}),
        defaultConfiguration: { level: levelFromSeverity(finding.severity) },
        properties: {
            severity: finding.severity,
            'security-severity': SECURITY_SEVERITY[finding.severity],
            tags: ['security', 'compliance', ...(finding.category ? [finding.category] : [])],
            ...(finding.category ? { category: finding.category } : {}),
        },
    };
}
function helpOf(finding, reference) {
    const remediation = finding.remediation ?? 'No remediation text was given for this check.';
    const text = reference
        ? `${sentence(remediation)}\nReference: ${reference}`
        : sentence(remediation);
    const link = markdownLink('Reference', reference);
    const markdown = `**Remediation:** ${markdownText(remediation, 4000)}${link ? `\n\n${link}` : ''}`;
    return { text, markdown };
}
function resultOf(finding, ruleIndex, age) {
    const ruleId = finding.identity;
    const description = finding.description ? ` ${sentence(finding.description)}` : '';
    return {
        ruleId,
        ruleIndex: ruleIndex.get(ruleId),
        level: levelFromSeverity(finding.severity),
        kind: 'fail',
        message: { text: `${sentence(finding.title)}${description}` },
        partialFingerprints: { 'tenantScanCheck/v1': ruleId },
        properties: {
            findingId: finding.id,
            result: finding.result,
            severity: finding.severity,
            ...(finding.category ? { category: finding.category } : {}),
            ...age,
        },
    };
}
/** The gate in SARIF's own words: baselineState on every result once a baseline was compared
 *  with (the spec wants it on all or none), a waiver as an accepted external suppression. */
function gateFieldsOf(marks, baselineFound) {
    const fields = {};
    if (baselineFound)
        fields.baselineState = marks.baselineState ?? 'new';
    if (marks.waiver) {
        const { reason, expires, owner } = marks.waiver;
        fields.suppressions = [
            {
                kind: 'external',
                status: 'accepted',
                justification: `${reason} (waived until ${expires}${owner ? `, owner ${owner}` : ''})`,
            },
        ];
    }
    return fields;
}
/** A check that failed in the baseline and does not now: kind pass, so it raises no alert. */
function absentResultOf(finding, ruleIndex) {
    const ruleId = finding.identity;
    return {
        ruleId,
        ruleIndex: ruleIndex.get(ruleId),
        kind: 'pass',
        level: 'none',
        baselineState: 'absent',
        message: { text: `Fixed since the baseline: ${sentence(finding.title)}` },
        partialFingerprints: { 'tenantScanCheck/v1': ruleId },
        properties: {
            severity: finding.severity,
            ...(finding.category ? { category: finding.category } : {}),
        },
    };
}
function locationOf(uri) {
    if (!uri || uri.trim() === '')
        return {};
    return {
        locations: [
            { physicalLocation: { artifactLocation: { uri: uri.trim() }, region: { startLine: 1 } } },
        ],
    };
}
function timesOf(input) {
    const times = {};
    const start = isoOrUndefined(input.scan.createdAt);
    const end = isoOrUndefined(input.scan.completedAt);
    if (start)
        times.startTimeUtc = start;
    if (end)
        times.endTimeUtc = end;
    return times;
}
function runProperties(input) {
    return {
        scanId: input.scan.id,
        scanStatus: input.scan.status,
        ...(input.scan.scanType ? { scanType: input.scan.scanType } : {}),
        ...(input.tenantName ? { tenant: input.tenantName } : {}),
        ...(input.scan.summary ? { summary: input.scan.summary } : {}),
    };
}
/** SARIF wants messages as sentences: trimmed, ending with a period. */
function sentence(value) {
    const trimmed = value.trim();
    if (trimmed === '')
        return 'No description.';
    return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
function absoluteUri(value) {
    if (!value)
        return undefined;
    try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
    }
    catch {
        return undefined;
    }
}
function isoOrUndefined(value) {
    if (!value)
        return undefined;
    const time = Date.parse(value);
    return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}


/***/ })

};
