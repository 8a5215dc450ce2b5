export const id = 106;
export const ids = [106];
export const modules = {

/***/ 5106:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   parseWaivers: () => (/* binding */ parseWaivers)
/* harmony export */ });
/* harmony import */ var yaml__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8815);
/* harmony import */ var _common_text_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(4640);
/* harmony import */ var _dispositions_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5637);
/* harmony import */ var _common_settings_problems_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1295);
/* harmony import */ var _common_yaml_syntax_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(9142);
// The waivers file's YAML into waivers, with `yaml`, whose nodes keep their position in the file:
// every problem names the file and the line. Loaded only when a waivers file exists (waivers.ts).





const KEYS = ['check', 'reason', 'expires', 'owner', 'disposition'];
const FORMAT_HINT = 'write `waivers:` followed by a list of entries with check, reason and expires';
/** The waivers of a file's text (`path` names it in messages). */
function parseWaivers(path, text) {
    const lines = new yaml__WEBPACK_IMPORTED_MODULE_0__/* .LineCounter */ .HN();
    const doc = (0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .parseDocument */ .Tp)(text, { lineCounter: lines, uniqueKeys: true });
    const at = (offset) => `${path} line ${lines.linePos(offset ?? 0).line}`;
    const [syntax] = doc.errors;
    // Only the first: the errors after a syntax error mostly follow from it.
    if (syntax)
        throw new _common_settings_problems_js__WEBPACK_IMPORTED_MODULE_2__/* .SettingsError */ .GN([(0,_common_yaml_syntax_js__WEBPACK_IMPORTED_MODULE_3__/* .yamlSyntaxProblem */ .m)(path, text, syntax)]);
    const root = doc.contents;
    if (root === null || isEmpty(root))
        return [];
    if (!(0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .isMap */ .jh)(root) || !root.has('waivers')) {
        throw new _common_settings_problems_js__WEBPACK_IMPORTED_MODULE_2__/* .SettingsError */ .GN([`${at(nodeStart(root))}: not a waivers file: ${FORMAT_HINT}`]);
    }
    const list = root.get('waivers', true);
    if (list === undefined || list === null || isEmpty(list))
        return [];
    if (!(0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .isSeq */ .oP)(list)) {
        throw new _common_settings_problems_js__WEBPACK_IMPORTED_MODULE_2__/* .SettingsError */ .GN([
            `${at(nodeStart(list))}: \`waivers\` is not a list: ${FORMAT_HINT}`,
        ]);
    }
    const problems = [];
    const waivers = [];
    const seen = new Map();
    list.items.forEach((item, index) => {
        const where = `${at(nodeStart(item))}: waiver ${index + 1}`;
        const waiver = readEntry(item, where, lines, problems);
        if (!waiver)
            return;
        const earlier = seen.get(waiver.check);
        if (earlier !== undefined) {
            problems.push(`${where} repeats check ${(0,_common_text_js__WEBPACK_IMPORTED_MODULE_4__/* .quoteValue */ .c)(waiver.check)} of line ${earlier}: keep one entry per check`);
            return;
        }
        seen.set(waiver.check, waiver.line);
        waivers.push(waiver);
    });
    if (problems.length > 0)
        throw new _common_settings_problems_js__WEBPACK_IMPORTED_MODULE_2__/* .SettingsError */ .GN(problems);
    return waivers;
}
function readEntry(item, where, lines, problems) {
    if (!(0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .isMap */ .jh)(item)) {
        problems.push(`${where} is not a mapping: give check, reason and expires as \`key: value\` lines`);
        return undefined;
    }
    const fields = new Map();
    for (const pair of item.items) {
        const key = (0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .isScalar */ .jn)(pair.key) ? String(pair.key.value) : '';
        if (!KEYS.includes(key)) {
            problems.push(`${where} has an unknown key ${(0,_common_text_js__WEBPACK_IMPORTED_MODULE_4__/* .quoteValue */ .c)(key)}: use ${KEYS.join(', ')}`);
            continue;
        }
        fields.set(key, (0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .isScalar */ .jn)(pair.value) ? pair.value.value : pair.value);
    }
    const before = problems.length;
    const check = textField(fields, 'check');
    const reason = textField(fields, 'reason');
    const expires = textField(fields, 'expires');
    const owner = textField(fields, 'owner');
    const disposition = dispositionField(fields, where, problems);
    if (!check)
        problems.push(`${where} has no check: add \`check: <the finding's checkId>\``);
    if (!reason)
        problems.push(`${where} has no reason: add \`reason: <why it is accepted for now>\``);
    if (!expires) {
        problems.push(`${where} has no expires date: add \`expires: YYYY-MM-DD\` (the last day it holds)`);
    }
    else if (!isCalendarDate(expires)) {
        problems.push(`${where} expires ${(0,_common_text_js__WEBPACK_IMPORTED_MODULE_4__/* .quoteValue */ .c)(expires)} is not a date: write YYYY-MM-DD, e.g. 2027-03-31`);
    }
    if (problems.length > before || !check || !reason || !expires)
        return undefined;
    const line = lines.linePos(nodeStart(item)).line;
    return {
        check,
        reason,
        expires,
        line,
        ...(owner ? { owner } : {}),
        ...(disposition ? { disposition } : {}),
    };
}
/** The waiver's disposition (undefined: none given, risk-accepted); an unknown one is a problem. */
function dispositionField(fields, where, problems) {
    const value = textField(fields, 'disposition');
    if (value === undefined)
        return undefined;
    const word = value.toLowerCase();
    if ((0,_dispositions_js__WEBPACK_IMPORTED_MODULE_1__/* .isDisposition */ .QB)(word))
        return word;
    problems.push(`${where} has an unknown disposition ${(0,_common_text_js__WEBPACK_IMPORTED_MODULE_4__/* .quoteValue */ .c)(value)}: use ${_dispositions_js__WEBPACK_IMPORTED_MODULE_1__/* .DISPOSITIONS */ .Rg.join(', ')} (the default is risk-accepted)`);
    return undefined;
}
function textField(fields, key) {
    const value = fields.get(key);
    if (typeof value === 'number' || typeof value === 'boolean')
        return String(value);
    if (typeof value !== 'string')
        return undefined;
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
}
function isCalendarDate(value) {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (!match)
        return false;
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}
function isEmpty(node) {
    return (0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .isScalar */ .jn)(node) && (node.value === null || node.value === '');
}
function nodeStart(node) {
    return node?.range?.[0] ?? 0;
}


/***/ })

};
